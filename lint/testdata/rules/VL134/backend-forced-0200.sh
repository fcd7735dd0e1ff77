# lint-version: 0.20.0
# vLLM asserts at start-up that every attention implementation returns the
# softmax LSE for decode ("DCP requires attention impls to return the
# softmax lse for decode"). FlashInfer MLA gained it in PR #43729 (opened
# 2026-05-27, after 0.21.0): 0.20.0 refuses DCP on it. FlashMLA has it since
# PR #23734.
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 -dcp 8 --attention-backend FLASHINFER_MLA # want VL134
vllm serve deepseek-ai/DeepSeek-V3 --port 8001 -tp 8 -dcp 8 --attention-backend FLASHMLA
