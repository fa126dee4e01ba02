"""The full-screen terminal game (``shanghai play``), built with Textual.

``session`` (no Textual) holds a game at one screen: seats, computer players, the record;
``render`` draws texts from one seat's view; ``table`` is the screen a game is played on;
``manipulation`` the screen of manipulation rummy; ``base`` what the two share (layout, hand,
the flow of the game); ``screens`` the dialogs and between-rounds screens; ``app`` the
application and its start screen.
"""
