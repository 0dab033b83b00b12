"""day3/05_distributed 的提示信息（简体中文）。"""

MESSAGES = {
    # 练习 1：ddp_settings
    "ddp.settings_default": (
        "没有 torchrun 的环境变量时（直接运行 `python train.py`），ddp_settings({{}}) 应该描述"
        "单个进程（rank 0，local_rank 0，world_size 1），但它抛出了 {error}。读取时要带默认值："
        "int(env.get('RANK', 0))，其余同理。"
    ),
    "ddp.settings_keys": "ddp_settings() 缺少以下键：{missing}。",
    "ddp.settings_int": (
        "ddp_settings(env)['{key}'] 应该是 int {expected}，实际得到 {got!r}（{got_type}）。"
        "环境变量永远是字符串：请用 int(...) 转换。"
    ),
    "ddp.settings_value": "当 env={env} 时，ddp_settings(env)['{key}'] 应该是 {expected!r}，实际得到 {got!r}。",
    "ddp.settings_backend": (
        "在 CUDA available={cuda} 时，后端应该是 '{expected}'，实际得到 '{got}'：NVIDIA GPU 用 NCCL，"
        "CPU 用 Gloo。"
    ),
    "ddp.settings_device_type": (
        "ddp_settings(env)['device'] 应该是一个 torch.device，实际得到 {got_type}：例如 "
        "torch.device('cuda', local_rank)。"
    ),
    "ddp.settings_gpu": (
        "当 env={env} 且 CUDA 可用时，设备应该是 {expected}，实际得到 {got}。每个进程驱动的是"
        "它所在机器上编号为 LOCAL_RANK 的 GPU；RANK 统计的是所有机器上的进程，"
        "所以在 GPU 较少的机器上，cuda:RANK 并不存在。"
    ),
    # 练习 2：average_gradients
    "ddp.avg_no_grad": "average_gradients() 之后，副本 {index} 的 '{name}' 没有梯度（.grad 为 None）。",
    "ddp.avg_unchanged": (
        "average_gradients() 之后，副本 {index} 的 '{name}' 仍然是它在自己那一份数据上算出的梯度："
        "每个副本的 .grad 都必须替换为所有副本的平均值（对梯度求平均，而不是对权重，并且要更新每一个副本）。"
    ),
    "ddp.avg_disagree": (
        "average_gradients() 之后，副本 {index} 的 '{name}' 梯度与副本 0 的不同："
        "每个副本最终都必须得到同一个平均梯度，否则各副本会逐渐偏离。"
    ),
    "ddp.avg_summed": (
        "'{name}' 的梯度是整个批次梯度的 {world} 倍：你把各副本的梯度加起来了。"
        "DDP 求的是平均值：请把总和除以副本数（或者使用 .mean(dim=0)）。"
    ),
    # 练习 3：在 torchrun 下运行 train.py
    "ddp.run_timeout": (
        "train.py 没有在 {seconds} 秒内结束，已被停止。常见原因是某个进程在集合通信"
        "（dist.barrier()，或 backward 内部的全归约）中等待另一个永远不会到达那里的进程，"
        "例如把 dist.barrier() 放在了 `if rank == 0:` 里面。"
    ),
    "ddp.barrier_mismatch": (
        "train.py 没有运行结束：进程 {waited} 调用了 dist.barrier() 并在等待，但进程 "
        "{skipped} 从未调用它，所以屏障无法完成（运行在 {seconds} 秒后被停止）。"
        "每个进程都必须调用 dist.barrier()：把它放在负责保存的 `if rank == 0:` 块之后，而不是里面。"
    ),
    "ddp.peer_gone": (
        "进程 {rank} 在一次集合通信（dist.barrier()，或 backward() 内部的全归约）中等待一个已经离开"
        "或者从未到来的进程：{error}。每个进程都必须以相同的顺序执行相同的集合通信调用。"
    ),
    "ddp.barrier_before_save": (
        "编号为 0 的进程在 torch.save 之前调用了 dist.barrier()，之后却没有调用（它的调用依次是：{calls}）："
        "其他进程越过屏障继续往下走时，检查点还在写入中，于是加载它的进程可能读到一个不存在或只写了一半的文件。"
        "屏障必须放在保存之后，并且每个进程都要调用。"
    ),
    "ddp.no_barrier": (
        "进程 {ranks} 从未调用 dist.barrier()：在编号为 0 的进程保存之后，每个进程都必须调用 "
        "dist.barrier()，这样在检查点写完之前，没有进程会继续往下走（加载文件、开始下一阶段）。"
    ),
    "ddp.run_failed": (
        "train.py 以退出码 {code} 停止。进程 {rank} 的错误：{error}  "
        "（print(run_training(TRAIN_PY).logs) 会显示每个进程打印的全部内容）。"
    ),
    "ddp.script_unfinished": (
        "train.py 在进程 {rank} 上因 NotImplementedError 停止：请把 ddp_settings() 和 main() 中的 "
        "`raise NotImplementedError()` 行换成你的代码，再运行一次 %%writefile 单元格，然后运行这个测试。"
    ),
    "ddp.no_report": (
        "进程 {rank} 结束时没有写出 outputs/rank{rank}.json：请在 main() 的末尾，"
        "在每个进程上调用 write_report(cfg, settings, seen, net)。"
    ),
    "ddp.report_world": (
        "进程 {rank} 的报告说它是 world_size {got} 中的第 {got_rank} 号，但 torchrun 启动了 {expected} 个"
        "进程：请把 ddp_settings(os.environ) 得到的设置传给 write_report()。"
    ),
    "ddp.epochs": (
        "进程 {rank} 在 `seen` 中记录了 {got} 轮，期望 {expected} 轮（cfg.epochs）："
        "每一轮把 train_one_epoch() 返回的下标追加一次。"
    ),
    "ddp.all_data": (
        "在第 {epoch} 轮，每个进程都读了全部 {n} 个样本：没有任何东西在进程之间切分数据，"
        "所以它们把同样的工作做了两遍。请给 DataLoader 传入 sampler=DistributedSampler(dataset, ...)"
        "（并且不要写 shuffle=True）。"
    ),
    "ddp.overlap": (
        "在第 {epoch} 轮，进程 0 和 1 读了 {count} 个相同的样本（例如 {examples}），而有 "
        "{missing} 个样本没有被任何进程读到。DistributedSampler 在每个进程上都必须使用相同的随机种子"
        "（seed=cfg.seed，而不是一个依赖于进程编号的种子）：它在各处以完全相同的方式打乱整个数据集，"
        "然后每个进程取自己的那一片。"
    ),
    "ddp.not_covered": (
        "在第 {epoch} 轮，所有进程合起来只读了 {n} 个样本中的 {got} 个（从未读到的："
        "{examples}……）。请使用 DistributedSampler(dataset, num_replicas=world_size, rank=rank, ...)，"
        "其中的进程总数和进程编号来自 ddp_settings()。"
    ),
    "ddp.same_order": (
        "进程 {rank} 在第 {before} 轮和第 {epoch} 轮读取样本的顺序完全相同：请在每一轮开始时调用 "
        "sampler.set_epoch(epoch)，否则 DistributedSampler 每次都用同样的种子重新打乱。"
    ),
    "ddp.order_reference": (
        "进程 {rank} 在第 {epoch} 轮的顺序，与 DistributedSampler(dataset, num_replicas=2, "
        "rank={rank}, shuffle=True, seed=cfg.seed) 在 set_epoch({epoch}) 之后给出的顺序不同："
        "期望开头为 {expected}，实际得到 {got}。请在每一轮之前调用 set_epoch(epoch)（传入轮次编号），"
        "并把这个采样器作为 DataLoader 的 sampler= 使用。"
    ),
    "ddp.weights_shape": (
        "两个进程报告的权重数量分别是 {n0} 和 {n1}：请把你训练的那个模型传给 write_report()。"
    ),
    "ddp.weights_differ": (
        "训练之后，进程 0 和进程 1 的权重不同（最大差异 {diff:.3g}）：各副本逐渐偏离了。"
        "请用 DistributedDataParallel 包装模型，并用包装器训练（model(x)），"
        "这样 backward() 才会在各进程之间对梯度求平均。"
    ),
    "ddp.ckpt_files": (
        "outputs/ 中有 {count} 个检查点文件（{names}）；期望恰好一个，"
        "即由编号为 0 的进程写出的 cfg.checkpoint。"
    ),
    "ddp.save_count": (
        "torch.save 被调用了 {count} 次，由进程 {ranks} 调用；检查点应该只保存一次，"
        "且只由编号为 0 的进程保存：把保存放在 `if rank == 0:` 里面，然后在每个进程上调用 dist.barrier()。"
        "如果每个进程都保存，它们会在同一时刻写同一个文件。"
    ),
    "ddp.ckpt_not_state_dict": (
        "检查点里存的是 {got_type}，而不是 state_dict：请保存 net.state_dict()（普通模型的）。"
    ),
    "ddp.ckpt_prefix": (
        "检查点的键以 'module.' 开头（例如 '{key}'）：那是 DDP 包装器的 state_dict。"
        "请保存普通模型的权重，即 net.state_dict() 或 model.module.state_dict()，"
        "这样文件才能在不用 DDP 的情况下加载到 make_model(cfg) 中。"
    ),
    "ddp.ckpt_load": "检查点无法加载到 make_model(CONFIG) 中：{error}",
    "ddp.ckpt_not_final": (
        "检查点中的权重与编号为 0 的进程最终的权重不同：请在最后一轮之后再保存。"
    ),
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "ddp.name_averaged_gradient": "'{name}' 的平均梯度",
    "ddp.name_replica_after_step": "副本 {i} 的 '{name}' 在一步之后",
    "ddp.demo_plain_model": "普通模型：    ",
    "ddp.demo_wrapped_is_module": "被包装的模型就是 .module：",
    "ddp.demo_rank_of": "进程编号 {rank}，共 {world} 个进程 | 后端：{backend}",
    "ddp.demo_after_all_reduce": "all_reduce 之后：",
    "ddp.demo_ddp_keys": "DDP 的 state_dict 键：",
    "ddp.demo_epoch_rank": "第 {epoch} 轮，进程 {rank}：{indices}",
    "ddp.demo_no_set_epoch": "不调用 set_epoch，第 {epoch} 轮，进程 0：{indices}",
    "ddp.demo_rank_epoch": "进程 {rank}，第 {epoch} 轮：{order} ……",
    "ddp.demo_first_weights": "进程 {rank}，前几个权重：{weights}",
    "ddp.demo_files": "outputs/ 中的文件：{files}，外加两份报告",
    "ddp.demo_project_folder": "项目文件夹：",
}
