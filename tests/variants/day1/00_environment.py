"""Honest variants for day1/00_environment."""

from tools.variants import Kind, Variant

VARIANTS = [
    Variant("env_pick_device", "is_available imported by name", Kind.IMPORT, code=(
        "from torch.backends import mps\n"
        "from torch.cuda import is_available as cuda_is_available\n\n\n"
        "def pick_device():\n"
        "    if cuda_is_available():\n"
        "        return torch.device(\"cuda\")\n"
        "    if mps.is_available():\n"
        "        return torch.device(\"mps\")\n"
        "    return torch.device(\"cpu\")\n")),
    Variant("env_pick_device", "a tensor built from a tensor (PyTorch warns)", Kind.WARNS, code=(
        "def pick_device():\n"
        "    if torch.cuda.is_available():\n"
        "        return torch.device(\"cuda\")\n"
        "    if torch.backends.mps.is_available():\n"
        "        return torch.device(\"mps\")\n"
        "    probe = torch.tensor(torch.zeros(1))  # copy-constructs: PyTorch prints a UserWarning\n"
        "    return torch.device(probe.device.type)\n")),
    Variant("env_environment_report", "get_num_threads and cuda imported by name", Kind.IMPORT, code=(
        "import torch.backends.cudnn as cudnn\n"
        "from torch import cuda, get_num_threads\n\n\n"
        "def environment_report():\n"
        "    has_cuda = cuda.is_available()\n"
        "    return dict(\n"
        "        torch_version=str(torch.__version__),\n"
        "        cuda_build=torch.version.cuda,\n"
        "        cuda_available=has_cuda,\n"
        "        device_name=cuda.get_device_name(0) if has_cuda else \"cpu\",\n"
        "        cudnn_version=cudnn.version() if has_cuda else None,\n"
        "        arch_list=cuda.get_arch_list(),\n"
        "        threads=get_num_threads(),\n"
        "    )\n")),
    Variant("env_version_at_least", "partition and map", Kind.API, code=(
        "def version_at_least(version, minimum):\n"
        "    public, _, _ = version.partition(\"+\")\n"
        "    return tuple(map(int, public.split(\".\")[: len(minimum)])) >= tuple(minimum)\n")),
]
