"""Messages of the pretend small GPU (:func:`ptcourse.peak.pretend_gpu`), shaped like PyTorch's own."""

MESSAGES = {
    "peak.out_of_memory": (
        "CUDA out of memory. Tried to allocate {asked}. GPU 0 has a total capacity of {capacity} of which "
        "{free} is free. Of the allocated memory {used} is allocated by PyTorch. (A pretend GPU, simulated "
        "on the CPU by the course.)"
    ),
    "peak.cudnn_internal_error": (
        "cuDNN error: CUDNN_STATUS_INTERNAL_ERROR (a pretend GPU, simulated on the CPU by the course)"
    ),
}
