"""Wrong answers for day1/00_environment."""

from tools.mutants import Mutant

MUTANTS = [
    Mutant("env_pick_device", "returns a string instead of a torch.device",
           expect=r"should return a torch\.device, got str",
           replace=[('torch.device("cuda")', '"cuda"'), ('torch.device("mps")', '"mps"'),
                    ('torch.device("cpu")', '"cpu"')], caught_by="visible", msgid="env.device_type"),
    Mutant("env_pick_device", "always the CPU", expect=r"should return 'cuda', got 'cpu'",
           code='def pick_device():\n    return torch.device("cpu")\n', caught_by="visible", msgid="env.device_choice"),
    Mutant("env_pick_device", "checks MPS before CUDA", expect=r"should return 'cuda', got 'mps'",
           code=('def pick_device():\n    if torch.backends.mps.is_available():\n        return torch.device("mps")\n'
                 '    if torch.cuda.is_available():\n        return torch.device("cuda")\n'
                 '    return torch.device("cpu")\n'), caught_by="visible", msgid="env.device_choice"),
    Mutant("env_pick_device", "forgets MPS", expect=r"should return 'mps', got 'cpu'",
           replace=[("torch.backends.mps.is_available()", "False")], caught_by="visible", msgid="env.device_choice"),
    Mutant("env_environment_report", "is_available without the brackets",
           expect=r"is a function, not its result",
           replace=[('"cuda_available": has_cuda', '"cuda_available": torch.cuda.is_available')], caught_by="visible", msgid="env.report_callable"),
    Mutant("env_environment_report", "a key missing", expect=r"missing the key\(s\) arch_list",
           replace=[('        "arch_list": torch.cuda.get_arch_list(),\n', "")], caught_by="visible", msgid="env.report_keys"),
    Mutant("env_environment_report", "hard-coded thread count", expect=r"\['threads'\] should be [37], got 2",
           replace=[('"threads": torch.get_num_threads()', '"threads": 2')], caught_by="visible", msgid="env.report_value"),
    Mutant("env_environment_report", "version as the torch.version module",
           expect=r"\['torch_version'\] should be",
           replace=[('"torch_version": str(torch.__version__)', '"torch_version": torch.version')], caught_by="visible", msgid="env.report_value"),
    Mutant("env_diagnose", "reads only cuda_available", expect=r"should say 'cpu_only_build', got 'no_gpu_or_driver'",
           code=('def diagnose(report):\n    if report["cuda_available"]:\n        return "gpu_ready"\n'
                 '    return "no_gpu_or_driver"\n'), caught_by="visible", msgid="env.diagnose"),
    Mutant("env_diagnose", "asks this machine's torch instead of the report", expect=r"diagnose\(\) should say",
           code=('def diagnose(report):\n    if torch.version.cuda is None:\n        return "cpu_only_build"\n'
                 '    if torch.cuda.is_available():\n        return "gpu_ready"\n    return "no_gpu_or_driver"\n'), caught_by="visible", msgid="env.diagnose"),
    Mutant("env_diagnose", "swaps the two failure cases", expect=r"should say 'no_gpu_or_driver', got 'cpu_only_build'",
           replace=[('return "cpu_only_build"', 'return "TMP"'), ('return "no_gpu_or_driver"', 'return "cpu_only_build"'),
                    ('return "TMP"', 'return "no_gpu_or_driver"')], caught_by="visible", msgid="env.diagnose"),
    Mutant("env_version_at_least", "compares strings", expect=r"version_at_least\('2\.(10|14)\.\d(\+cu130)?', \(2, [69]\)\) should be True, got False",
           code=('def version_at_least(version, minimum):\n'
                 '    return version.split("+")[0] >= ".".join(str(n) for n in minimum)\n'), caught_by="visible", msgid="env.version"),
    Mutant("env_version_at_least", "keeps the +cu130 tag", expect=r"ValueError|invalid literal",
           replace=[('public = version.split("+")[0]', "public = version")], caught_by="hidden"),
    Mutant("env_version_at_least", "compares the major number only", expect=r"should be False, got True",
           replace=[("[: len(minimum)]", "[:1]"), ("tuple(minimum)", "tuple(minimum[:1])")], caught_by="visible", msgid="env.version"),
    Mutant("env_version_at_least", "returns the tuple comparison as a number", expect=r"should return True or False, got int",
           replace=[("return numbers >= tuple(minimum)", "return int(numbers >= tuple(minimum))")], caught_by="visible", msgid="env.version_type"),
]
