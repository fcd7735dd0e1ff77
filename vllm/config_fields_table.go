// Code generated from the release tags by a one-off script (python ast over vllm/config/compilation.py and vllm/config/parallel.py at each tag); DO NOT EDIT by hand: re-read the tags.

package vllm

var (
	ccF0   = []string{"level", "debug_dump_path", "cache_dir", "backend", "custom_ops", "splitting_ops", "use_inductor", "compile_sizes", "inductor_compile_config", "inductor_passes", "cudagraph_mode", "use_cudagraph", "cudagraph_num_of_warmups", "cudagraph_capture_sizes", "cudagraph_copy_inputs", "full_cuda_graph", "use_inductor_graph_partition", "pass_config"}
	passF0 = []string{"enable_fusion", "enable_attn_fusion", "enable_noop", "enable_sequence_parallelism", "enable_async_tp", "enable_fi_allreduce_fusion", "fi_allreduce_fusion_max_token_num"}
	eplbF0 = []string{"window_size", "step_interval", "num_redundant_experts", "log_balancedness"}
	ccF1   = []string{"level", "mode", "debug_dump_path", "cache_dir", "compile_cache_save_format", "backend", "custom_ops", "splitting_ops", "compile_mm_encoder", "use_inductor", "compile_sizes", "inductor_compile_config", "inductor_passes", "cudagraph_mode", "cudagraph_num_of_warmups", "cudagraph_capture_sizes", "cudagraph_copy_inputs", "cudagraph_specialize_lora", "use_inductor_graph_partition", "pass_config", "max_cudagraph_capture_size"}
	passF1 = []string{"enable_fusion", "enable_attn_fusion", "enable_noop", "enable_sequence_parallelism", "enable_async_tp", "enable_fi_allreduce_fusion", "fi_allreduce_fusion_max_size_mb", "enable_qk_norm_rope_fusion"}
	ccF2   = []string{"level", "mode", "debug_dump_path", "cache_dir", "compile_cache_save_format", "backend", "custom_ops", "splitting_ops", "compile_mm_encoder", "compile_sizes", "inductor_compile_config", "inductor_passes", "cudagraph_mode", "cudagraph_num_of_warmups", "cudagraph_capture_sizes", "cudagraph_copy_inputs", "cudagraph_specialize_lora", "use_inductor_graph_partition", "pass_config", "max_cudagraph_capture_size", "dynamic_shapes_config"}
	passF2 = []string{"fuse_norm_quant", "fuse_act_quant", "fuse_attn_quant", "eliminate_noops", "enable_sp", "fuse_gemm_comms", "fuse_allreduce_rms", "enable_fusion", "enable_attn_fusion", "enable_noop", "enable_sequence_parallelism", "enable_async_tp", "enable_fi_allreduce_fusion", "fi_allreduce_fusion_max_size_mb", "enable_qk_norm_rope_fusion"}
	eplbF1 = []string{"window_size", "step_interval", "num_redundant_experts", "log_balancedness", "use_async"}
	ccF3   = []string{"level", "mode", "debug_dump_path", "cache_dir", "compile_cache_save_format", "backend", "custom_ops", "splitting_ops", "compile_mm_encoder", "compile_sizes", "compile_ranges_split_points", "inductor_compile_config", "inductor_passes", "cudagraph_mode", "cudagraph_num_of_warmups", "cudagraph_capture_sizes", "cudagraph_copy_inputs", "cudagraph_specialize_lora", "use_inductor_graph_partition", "pass_config", "max_cudagraph_capture_size", "dynamic_shapes_config"}
	passF3 = []string{"fuse_norm_quant", "fuse_act_quant", "fuse_attn_quant", "eliminate_noops", "enable_sp", "fuse_gemm_comms", "fuse_allreduce_rms", "fi_allreduce_fusion_max_size_mb", "enable_qk_norm_rope_fusion"}
	eplbF2 = []string{"window_size", "step_interval", "num_redundant_experts", "log_balancedness", "use_async", "policy"}
	eplbF3 = []string{"window_size", "step_interval", "num_redundant_experts", "log_balancedness", "log_balancedness_interval", "use_async", "policy"}
	ccF4   = []string{"level", "mode", "debug_dump_path", "cache_dir", "compile_cache_save_format", "backend", "custom_ops", "splitting_ops", "compile_mm_encoder", "compile_sizes", "compile_ranges_split_points", "inductor_compile_config", "inductor_passes", "cudagraph_mode", "cudagraph_num_of_warmups", "cudagraph_capture_sizes", "cudagraph_copy_inputs", "cudagraph_specialize_lora", "use_inductor_graph_partition", "pass_config", "max_cudagraph_capture_size", "dynamic_shapes_config", "fast_moe_cold_start"}
	passF4 = []string{"fuse_norm_quant", "fuse_act_quant", "fuse_attn_quant", "eliminate_noops", "enable_sp", "fuse_gemm_comms", "fuse_allreduce_rms", "fuse_act_padding", "fi_allreduce_fusion_max_size_mb", "enable_qk_norm_rope_fusion"}
	passF5 = []string{"fuse_norm_quant", "fuse_act_quant", "fuse_attn_quant", "eliminate_noops", "enable_sp", "fuse_gemm_comms", "fuse_allreduce_rms", "enable_qk_norm_rope_fusion", "fuse_act_padding", "fuse_rope_kvcache", "rope_kvcache_fusion_max_token_num", "fi_allreduce_fusion_max_size_mb", "sp_min_token_num"}
	ccF5   = []string{"mode", "debug_dump_path", "cache_dir", "compile_cache_save_format", "backend", "custom_ops", "splitting_ops", "compile_mm_encoder", "compile_sizes", "compile_ranges_endpoints", "inductor_compile_config", "inductor_passes", "cudagraph_mode", "cudagraph_num_of_warmups", "cudagraph_capture_sizes", "cudagraph_copy_inputs", "cudagraph_specialize_lora", "use_inductor_graph_partition", "pass_config", "max_cudagraph_capture_size", "dynamic_shapes_config", "fast_moe_cold_start"}
	ccF6   = []string{"mode", "debug_dump_path", "cache_dir", "compile_cache_save_format", "backend", "custom_ops", "splitting_ops", "compile_mm_encoder", "cudagraph_mm_encoder", "encoder_cudagraph_token_budgets", "encoder_cudagraph_max_images_per_batch", "compile_sizes", "compile_ranges_endpoints", "inductor_compile_config", "inductor_passes", "cudagraph_mode", "cudagraph_num_of_warmups", "cudagraph_capture_sizes", "cudagraph_copy_inputs", "cudagraph_specialize_lora", "use_inductor_graph_partition", "pass_config", "max_cudagraph_capture_size", "dynamic_shapes_config", "fast_moe_cold_start"}
	passF6 = []string{"fuse_norm_quant", "fuse_act_quant", "fuse_attn_quant", "eliminate_noops", "enable_sp", "fuse_gemm_comms", "fuse_allreduce_rms", "fuse_minimax_qk_norm", "enable_qk_norm_rope_fusion", "fuse_act_padding", "fuse_rope_kvcache", "rope_kvcache_fusion_max_token_num", "fi_allreduce_fusion_max_size_mb", "sp_min_token_num"}
	ccF7   = []string{"mode", "debug_dump_path", "cache_dir", "compile_cache_save_format", "backend", "custom_ops", "ir_enable_torch_wrap", "splitting_ops", "compile_mm_encoder", "cudagraph_mm_encoder", "encoder_cudagraph_token_budgets", "encoder_cudagraph_max_vision_items_per_batch", "encoder_cudagraph_max_frames_per_batch", "compile_sizes", "compile_ranges_endpoints", "inductor_compile_config", "inductor_passes", "cudagraph_mode", "cudagraph_num_of_warmups", "cudagraph_capture_sizes", "cudagraph_copy_inputs", "cudagraph_specialize_lora", "use_inductor_graph_partition", "pass_config", "max_cudagraph_capture_size", "dynamic_shapes_config", "fast_moe_cold_start"}
	passF7 = []string{"fuse_norm_quant", "fuse_act_quant", "fuse_attn_quant", "eliminate_noops", "enable_sp", "fuse_gemm_comms", "fuse_allreduce_rms", "fuse_minimax_qk_norm", "enable_qk_norm_rope_fusion", "fuse_act_padding", "fuse_mla_dual_rms_norm", "fuse_rope_kvcache", "rope_kvcache_fusion_max_token_num", "fi_allreduce_fusion_max_size_mb", "sp_min_token_num"}
	eplbF4 = []string{"window_size", "step_interval", "num_redundant_experts", "log_balancedness", "log_balancedness_interval", "use_async", "policy", "communicator"}
	passF8 = []string{"fuse_norm_quant", "fuse_act_quant", "fuse_attn_quant", "eliminate_noops", "enable_sp", "fuse_gemm_comms", "fuse_allreduce_rms", "fuse_minimax_qk_norm", "enable_qk_norm_rope_fusion", "fuse_rope_kvcache_cat_mla", "fuse_act_padding", "fuse_mla_dual_rms_norm", "fuse_rope_kvcache", "rope_kvcache_fusion_max_token_num", "fi_allreduce_fusion_max_size_mb", "sp_min_token_num"}
	passF9 = []string{"fuse_norm_quant", "fuse_act_quant", "fuse_attn_quant", "eliminate_noops", "enable_sp", "fuse_gemm_comms", "fuse_allreduce_rms", "enable_qk_norm_rope_fusion", "fuse_rope_kvcache_cat_mla", "fuse_act_padding", "fuse_mla_dual_rms_norm", "fuse_rope_kvcache", "rope_kvcache_fusion_max_token_num", "fi_allreduce_fusion_max_size_mb", "sp_min_token_num"}
)

// configFieldsTable: one row per final release tag read, oldest first.
var configFieldsTable = []configFieldsRow{
	{"0.11.0", "b8b302cde434", ccF0, passF0, eplbF0, 116, 70, 39},
	{"0.11.1", "439368496db4", ccF1, passF1, eplbF0, 198, 96, 43},
	{"0.11.2", "275de3417065", ccF1, passF1, eplbF0, 198, 96, 43},
	{"0.12.0", "4fd9d6a85c00", ccF2, passF2, eplbF1, 352, 95, 42},
	{"0.13.0", "72506c98349d", ccF3, passF3, eplbF2, 294, 100, 43},
	{"0.14.0", "b17039bccc17", ccF3, passF3, eplbF3, 301, 103, 52},
	{"0.14.1", "d7de043d55d1", ccF3, passF3, eplbF3, 301, 103, 52},
	{"0.15.0", "f176443446f6", ccF3, passF3, eplbF3, 301, 103, 54},
	{"0.15.1", "1892993bc18e", ccF3, passF3, eplbF3, 301, 103, 54},
	{"0.16.0", "89a77b10846f", ccF4, passF4, eplbF3, 313, 98, 51},
	{"0.17.0", "b31e9326a7d9", ccF4, passF5, eplbF3, 337, 102, 51},
	{"0.17.1", "95c0f928cdee", ccF4, passF5, eplbF3, 337, 102, 51},
	{"0.18.0", "bcf2be961200", ccF5, passF5, eplbF3, 358, 105, 55},
	{"0.18.1", "a26e8dc7ff21", ccF5, passF5, eplbF3, 358, 105, 55},
	{"0.19.0", "2a69949bdadf", ccF6, passF5, eplbF3, 359, 105, 53},
	{"0.19.1", "b1388b1fbf5a", ccF6, passF6, eplbF3, 361, 105, 53},
	{"0.20.0", "88d34c6409e9", ccF7, passF7, eplbF4, 372, 107, 55},
	{"0.20.1", "132765e35606", ccF7, passF7, eplbF4, 372, 107, 55},
	{"0.20.2", "bc150f502991", ccF7, passF7, eplbF4, 372, 107, 55},
	{"0.21.0", "ad7125a431e1", ccF7, passF7, eplbF4, 372, 107, 55},
	{"0.22.0", "0b3ba88f1659", ccF7, passF8, eplbF4, 381, 107, 55},
	{"0.22.1", "0decac0d96c4", ccF7, passF8, eplbF4, 381, 107, 55},
	{"0.23.0", "0fc695fc6d1d", ccF7, passF8, eplbF4, 390, 107, 56},
	{"0.24.0", "ee0da84ab9e0", ccF7, passF9, eplbF4, 379, 107, 57},
}
