"""Words that test cells pass as values into other messages (``what=``, ``hint=``, ``where=``), so that
they are translated with the message around them."""

MESSAGES = {
    "devices.where_all_tensors": "batch (tensors in total)",
    "memory.what_small_cnn": "a small CNN with '{name}'",
}
