"""Running untrusted code: a student's ``agent(board, player)`` function.

The classroom interface (:mod:`engine.agents.classroom`) is the program's
trust boundary. A student's file may hang, fork, flood its output, eat
memory, crash, or return a crafted object whose unpickling runs code. So it
runs in a separate Python process (:mod:`engine.sandbox.process`), on Linux
inside a wall of namespaces (:mod:`engine.sandbox.boundary`) that shows it
copies of its own files only (:mod:`engine.sandbox.view`), filters its
system calls (:mod:`engine.sandbox.seccomp`), counts the memory and
processes of all its processes together where a cgroup can be made
(:mod:`engine.sandbox.cgroup`) and is stopped between its moves
(:mod:`engine.sandbox.pause`), and the two
sides speak plain text (:mod:`engine.sandbox.child` defines both ends of
the protocol): one short ASCII line per board, one per answer. Nothing the
student's code produces is ever unpickled, imported or evaluated in the
program's own process: the parent reads bytes, at most a line's worth, and
parses one integer out of them, and what it prints reaches people as clean
text (:mod:`engine.sandbox.text`).
"""
