"""English messages. One module per topic; each defines ``MESSAGES``."""
