"""The terminal game's layout (Textual CSS), kept in Python so that it ships with the package."""

CSS = """\
#top {
    height: auto;
    background: $boost;
    padding: 0 1;
}

#middle {
    height: 1fr;
    min-height: 8;
}

#side {
    width: 48;
    height: auto;
    padding: 0 1;
    border-right: solid $primary-darken-2;
}

#players {
    height: auto;
}

#pile {
    height: auto;
    margin-top: 1;
}

#melds-box {
    width: 1fr;
    padding: 0 1;
}

#log {
    height: 6;
    border-top: solid $primary-darken-2;
    padding: 0 1;
    scrollbar-size: 1 1;
}

#prompt {
    height: auto;
    min-height: 1;
    padding: 0 1;
    border-top: solid $primary-darken-2;
}

#hand {
    height: auto;
    padding: 0 1;
    margin-bottom: 1;
}

ChoiceScreen, CutScreen, InfoScreen, RoundOverScreen, GameOverScreen {
    align: center middle;
}

.dialog {
    width: 90;
    max-width: 95%;
    height: auto;
    max-height: 90%;
    border: thick $primary;
    background: $surface;
    padding: 1 2;
}

.dialog.wide {
    width: 110;
}

.dialog.over {
    border: thick $warning;
}

.info-body {
    height: auto;
    max-height: 30;
}

.question {
    margin-bottom: 1;
}

#choices {
    height: auto;
    max-height: 20;
}

CurtainScreen {
    align: center middle;
    background: $background;
}

.curtain {
    width: 70;
    height: auto;
    border: double $accent;
    padding: 2 4;
}

#start {
    padding: 1 2;
}

#start-title {
    margin-bottom: 1;
}

#start .row {
    height: auto;
}

#start .label {
    width: 14;
    padding: 1 1 0 0;
}

#start Select {
    width: 60;
}

#start .seat Input {
    width: 30;
}

#start #name {
    width: 30;
}

#start #target {
    width: 12;
}

#start .hint {
    padding: 1 0 0 1;
    color: $text-muted;
}

#record-button {
    margin-left: 2;
}

#description {
    margin: 0 0 1 14;
    width: 90;
}

.section {
    margin-top: 1;
}

#start-error {
    height: auto;
    margin: 1 0;
}
"""
