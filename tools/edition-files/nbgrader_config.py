"""nbgrader settings for learners: JupyterLab's Validate button and, on a JupyterHub with
nbgrader's exchange, the Assignments tab (fetch and submit)."""

c = get_config()  # noqa: F821 - provided by traitlets when nbgrader loads this file

c.CourseDirectory.course_id = "pytorch-in-three-days"
# Training cells take a few seconds; this is the limit the graded run uses too.
c.Execute.timeout = 120
c.ExecutePreprocessor.timeout = 120
