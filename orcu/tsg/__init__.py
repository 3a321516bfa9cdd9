"""The Transformation Strategy Generator: how a loop nest runs on the GPU (after CUDA-CHiLL's TSG)."""
