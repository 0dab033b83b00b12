"""Messages of day1/01_tensors."""

MESSAGES = {
    "tensors.grid_dtype": (
        "make_grid() should return float32 numbers, got {got}. torch.arange with whole numbers "
        "makes int64 integers: ask for dtype=torch.float32 (or call .float())."
    ),
    "tensors.grid_values": (
        "make_grid({rows}, {cols}) should hold 0, 1, ..., {last}, filled row by row: {expected}; "
        "got {got}. torch.arange(n) starts at 0 and stops before n, and reshape fills the first "
        "row first."
    ),
    "tensors.sqdist_raised": (
        "pairwise_sq_dists(a, b) with a of shape {shape_a} and b of shape {shape_b} raised: {error}\n"
        "Subtracting an (N, D) tensor from an (M, D) one does not broadcast when N != M: first give "
        "a the shape (N, 1, D) and b the shape (1, M, D)."
    ),
    "tensors.sqdist_shape": (
        "With a of shape ({n}, {d}) and b of shape ({m}, {d}), pairwise_sq_dists should return shape "
        "({n}, {m}), got {got}. Entry [i, j] is the distance from a[i] to b[j]: broadcast to "
        "({n}, {m}, {d}), then sum over the last dimension (the coordinates, dim=-1)."
    ),
    "tensors.sqdist_not_squared": (
        "pairwise_sq_dists returned plain distances {got}, not squared distances {expected}: "
        "leave out the square root."
    ),
    "tensors.sqdist_values": (
        "On the small example pairwise_sq_dists should give {expected}, got {got}. Square each "
        "coordinate difference, then sum the squares over the coordinates."
    ),
    "tensors.zero_negatives_pair": "zero_negatives(x) should return a pair (cleaned, count), got {got}.",
    "tensors.zero_negatives_shape": (
        "The cleaned tensor should keep the shape of x, {expected}, got {got}. x[mask] picks the "
        "selected entries out into a 1-D tensor; to replace entries, assign through the mask on a "
        "copy (y[mask] = 0) or use torch.where."
    ),
    "tensors.count_type": (
        "The count should be a Python int, got {got_type}: a one-element tensor becomes a number "
        "with .item() or int(...)."
    ),
    "tensors.count_value": (
        "x has {expected} negative entries, but zero_negatives counted {got}. Count with the mask "
        "x < 0 (zero is not negative), before you change any value."
    ),
    "tensors.input_changed": (
        "zero_negatives changed the tensor it was given: after the call, x has no negative entries "
        "left. Assigning through a mask (x[mask] = 0) writes into x itself; work on a copy "
        "(x.clone()) or use torch.where / torch.clamp, which return new tensors."
    ),
    "tensors.flatten_shape": (
        "flatten_images on a batch of shape {batch_shape} should return shape {expected}, one row "
        "per image, got {got}. Keep the first (batch) dimension and merge the other three; -1 lets "
        "PyTorch work out one size."
    ),
    "tensors.flatten_order": (
        "flatten_images on a batch of shape {batch_shape} has the right shape, but its values are in "
        "another order than torch.flatten(x, start_dim=1): each row should list channel 0's pixels "
        "row by row, then channel 1's, and so on. Did you permute the dimensions before flattening?"
    ),
    "tensors.flatten_non_contiguous": (
        "flatten_images failed on a batch of shape {shape} that is not contiguous (made with "
        ".permute, as when images arrive channels-last): {error}\n"
        ".view only works when the memory layout allows it; .reshape (or .contiguous().view) "
        "always works."
    ),
    "tensors.flatten_raised": (
        "flatten_images raised on a batch of shape {shape}: {error}\n"
        "Does your code work for any batch size and image size, with no fixed numbers?"
    ),
    "tensors.sharing_bool": (
        "shares_memory() should return a Python bool (True or False), got {got_type}. Comparing two "
        "addresses (ints) with == gives one."
    ),
    "tensors.sharing_view_missed": (
        "shares_memory({a}, {b}) said False, but {b} is a view backed by the same storage as {a}. "
        "Two views can start at different elements (x[1] starts 4 elements in) or read them in "
        "another order, so compare the storages' addresses, t.untyped_storage().data_ptr(), not "
        "t.data_ptr() (the first element's address) and not the tensors themselves (is, ==)."
    ),
    "tensors.sharing_disjoint_missed": (
        "shares_memory({a}, {b}) said False, but both are views into the same storage (x's one "
        "block of memory), even though they hold no element in common. Sharing memory is about the "
        "storage, not about overlapping elements: compare t.untyped_storage().data_ptr()."
    ),
    "tensors.sharing_copy_missed": (
        "shares_memory({a}, {b}) said True, but {b} is a copy with memory of its own. Equal values "
        "prove nothing (a copy has them too): compare where the memory is, "
        "t.untyped_storage().data_ptr(), not what it holds."
    ),
    "tensors.sharing_unanswered": (
        "SHARES_WITH_X still has entries that are not True or False: {keys}. Replace each None "
        "with True (shares x's memory) or False (a copy)."
    ),
    "tensors.sharing_wrong": (
        "SHARES_WITH_X[{expr!r}] says it {said}, but the result is {truth}. {why} "
        "Check it yourself: shares_memory(x, {expr})."
    ),
    "tensors.why_row": "Indexing one row is a slice: a view that starts further into x's storage.",
    "tensors.why_column": "A column is a slice too: a view that jumps by the row length (its stride).",
    "tensors.why_mask": (
        "A boolean mask picks any entries, in no regular pattern: no strides can describe that, so "
        "the entries are copied into a new 1-D tensor."
    ),
    "tensors.why_index_list": (
        "Indexing with a list (or tensor) of positions copies the rows it picks, like a mask."
    ),
    "tensors.why_transpose": ".t() only swaps the strides: same memory, read in another order.",
    "tensors.why_reshape_view": (
        "x is contiguous, so reshape can return a view (it copies only when the memory layout "
        "forces it)."
    ),
    "tensors.why_reshape_copy": (
        "x.t() is not contiguous: no strides read it as one flat row, so reshape has to copy "
        "(and view would refuse)."
    ),
    "tensors.why_same_dtype": (
        "x is already float32, so x.float() (like .to() with nothing to change) returns x itself: "
        "no copy."
    ),
    "tensors.why_new_dtype": "float64 numbers take 8 bytes each instead of 4: a dtype change needs new memory.",
    "tensors.why_from_numpy": (
        "x.numpy() shares x's memory, and torch.from_numpy shares the array's: the round trip "
        "copies nothing."
    ),
    "tensors.why_tensor_copies": "torch.tensor(data) always copies its data, whatever it is given.",
    "tensors.weights_dtype_error": (
        "apply_weights raised: {error}\n"
        "A matrix product needs both tensors to have the same dtype: counts are int64 and weights "
        "{w_dtype}. Convert counts to the weights' dtype (weights.dtype), not to a fixed one."
    ),
    "tensors.weights_device_error": (
        "apply_weights raised with weights on device '{w_device}': {error}\n"
        "Both tensors of an operation must be on the same device: move counts to weights.device "
        "(not to a fixed device), and leave the weights where they are."
    ),
    "tensors.weights_device": (
        "apply_weights should compute on the weights' device '{expected}', but its result is on "
        "'{got}'. Move counts to weights.device (not to a fixed device), and leave the weights "
        "where they are."
    ),
    "tensors.weights_not_moved": (
        "With weights on a GPU ('{device}', simulated here), apply_weights multiplied them with counts "
        "still on the CPU: on a real GPU that raises \"Expected all tensors to be on the same device\". "
        "Move counts to weights.device (not to a fixed device) before the product."
    ),
    "tensors.weights_dtype": (
        "apply_weights should return {expected} (the dtype of weights), got {got}. Convert counts to "
        "the weights' dtype, not the weights to integers (that rounds them)."
    ),
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "tensors.demo_mse_wrong": "mean squared error, wrong:",
    "tensors.demo_mse_right": "mean squared error, right:",
    "tensors.demo_negatives": "negatives:",
    "tensors.demo_no_copy": "no copy when already there:",
    "tensors.name_cleaned": "the result for a random {shape} tensor",
    "tensors.word_shares": "shares x's memory",
    "tensors.word_is_copy": "is a copy",
    "tensors.word_a_copy": "a copy",
    "tensors.word_its_source": "its source",
    "tensors.label_counts_on_cpu": "counts, made on the CPU",
    "tensors.name_pairwise_random": "pairwise_sq_dists on random {a} and {b} points",
}
