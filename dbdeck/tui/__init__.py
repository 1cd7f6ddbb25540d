"""The Textual interface: the table, its dialogs and the reference screens."""
