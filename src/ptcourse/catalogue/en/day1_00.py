"""Messages of day1/00_environment."""

MESSAGES = {
    "env.device_type": "pick_device() should return a torch.device, got {got_type}: wrap the name, torch.device('cuda').",
    "env.device_choice": (
        "With CUDA available={cuda} and MPS available={mps}, pick_device() should return "
        "'{expected}', got '{got}'. Check CUDA first, then MPS, then fall back to the CPU."
    ),
    "env.report_keys": "environment_report() is missing the key(s) {missing}.",
    "env.report_value": "environment_report()['{key}'] should be {expected!r}, got {got!r}.",
    "env.report_callable": (
        "environment_report()['{key}'] is a function, not its result: call it, e.g. "
        "torch.cuda.is_available() with the brackets."
    ),
    "env.diagnose": "For a report with {facts}, diagnose() should say '{expected}', got '{got}'.",
    "env.version": "version_at_least({version!r}, {minimum}) should be {expected}, got {got}.",
    "env.version_type": "version_at_least() should return True or False, got {got_type}.",
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "env.demo_built_with_cuda": "built with CUDA:",
    "env.demo_cuda_available": "CUDA available:",
    "env.demo_mps_available": "MPS (Apple GPU) available:",
    "env.demo_threads": "threads:",
}
