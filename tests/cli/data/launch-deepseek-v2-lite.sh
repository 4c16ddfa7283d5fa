#!/bin/bash
# DeepSeek-V2-Lite on 8 nodes of 8 GPUs (Megatron-LM pretrain_gpt.py).
MODEL_ARGS=(
    --num-layers 27
    --seq-length 4096
)
PARALLEL_ARGS=(
    --tensor-model-parallel-size 1
    --pipeline-model-parallel-size 1
    --expert-model-parallel-size 8
    --micro-batch-size 4
    # --micro-batch-size 1   (for debugging)
    --global-batch-size=1024
    --use-distributed-optimizer
    --recompute-granularity 'selective'
)
torchrun --nproc_per_node 8 --nnodes 8 pretrain_gpt.py \
    "${MODEL_ARGS[@]}" \
    "${PARALLEL_ARGS[@]}" \
    --lr 3e-4 --train-iters 1000
