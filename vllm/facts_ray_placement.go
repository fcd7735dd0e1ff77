package vllm

// SrcRayPlacementGroup: how the Ray executor reserves an engine's GPUs.
// vllm-project/vllm@01eec54927dd101d2d1e8dbf96e35b69699a0b4f
// vllm/executor/ray_utils.py initialize_ray_cluster: without an existing
// placement group it builds world_size bundles of {GPU: 1} (world_size =
// TP x PP of the engine), logs "The number of required GPUs exceeds the total
// number of available GPUs in the placement group." when the cluster has
// fewer, and _wait_until_pg_ready then waits PG_WAIT_TIMEOUT seconds
// ("Waiting for creating a placement group of specs ...") before raising
// "Cannot provide a placement group of placement_group_specs=... within 1800
// seconds". Each DP rank's engine builds its own placement group of its
// world size.
const SrcRayPlacementGroup = "vllm@01eec54927dd vllm/executor/ray_utils.py initialize_ray_cluster, _wait_until_pg_ready (PG_WAIT_TIMEOUT = 1800)"

// RayPlacementGroupWaitSeconds is PG_WAIT_TIMEOUT in vllm/executor/ray_utils.py
// at vllm@01eec54927dd: how long the engine waits for a placement group
// the cluster cannot provide before it fails.
const RayPlacementGroupWaitSeconds = 1800
