"""Words that test cells pass as values into other messages (``what=``, ``hint=``, ``where=``), so that
they are translated with the message around them."""

MESSAGES = {
    "devices.where_all_tensors": "batch (tensors in total)",
    "memory.what_small_cnn": "a small CNN with '{name}'",
    "debug.what_tower": "a tower of {depth} sigmoid layers, ratio={ratio}",
    "debug.what_dead_stale": "a network with a dead middle layer and stale gradients",
    "debug.hint_zero_grad": "clear the old gradients first (model.zero_grad())",
    "debug.hint_walk_back": "compare with the last Linear layer's norm, walking back",
}
