"""A Kaggle ConnectX submission: ``my_agent(observation, configuration) -> column``.

``observation.board`` is a flat list, row-major, top row first (0 empty, 1
and 2 the players); ``observation.mark`` is this agent's number. It plays the
free column nearest the centre.
"""


def my_agent(observation, configuration):
    cols = configuration.columns
    for column in sorted(range(cols), key=lambda c: abs(c - cols // 2)):
        if observation.board[column] == 0:
            return column
