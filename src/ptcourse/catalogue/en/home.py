"""Messages of the course home's opening cell (tools/home.py, ``make points``): each day's time and
where to ask, made in each edition's language."""

MESSAGES = {
    "home.day_time": "Day {n} about {time}",
    "home.days_joined": ", ",
    "home.days_end": (": the time to read everything, run the notebooks and do every exercise. Each notebook's "
                      "time is in the tables below; sections marked \"(optional)\" are extra."),
    "home.ask_url": "the [course's discussion page]({url}); questions about any notebook are welcome there.",
    "home.ask_none": ("your instructor or your class's forum. Paste the check's message into your question: it "
                      "says what was expected and what your code gave."),
}
