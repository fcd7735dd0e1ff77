package catalog

import (
	"sort"
	"strings"
)

// GPU holds the facts the estimator needs about one accelerator. Figures are
// the vendors' published datasheet values and, for memory totals, what the
// CUDA runtime and nvidia-smi report on the part (Notes say where a figure
// is derived or disputed); FLOPS are dense.
type GPU struct {
	ID     string `json:"id"`
	Name   string `json:"name"` // as nvidia-smi / torch name it
	Vendor string `json:"vendor"`
	// MemoryMiB is the total the CUDA runtime reports, which is what vLLM
	// multiplies by gpu_memory_utilization.
	MemoryMiB float64 `json:"memory_mib"`
	// SMIMemoryMiB is the total nvidia-smi (or rocm-smi) prints.
	SMIMemoryMiB           float64 `json:"smi_memory_mib"`
	HBMBandwidthGBytesPerS float64 `json:"hbm_bandwidth_gbytes_per_s"`
	BF16TFLOPS             float64 `json:"bf16_tflops"`
	FP8TFLOPS              float64 `json:"fp8_tflops"` // 0 = no FP8 tensor cores
	// IntraNodeGBytesPerS is the GPU-to-GPU link, per GPU and per direction.
	IntraNodeGBytesPerS float64 `json:"intra_node_gbytes_per_s"`
	IntraNodeKind       string  `json:"intra_node_kind"`
	SMs                 int     `json:"sms,omitempty"`
	// ComputeMajor is the CUDA compute capability's major version (8
	// Ampere/Ada, 9 Hopper, 10 Blackwell); 0 for AMD parts and unknown
	// custom GPUs. vLLM picks attention kernels by it.
	ComputeMajor int    `json:"compute_capability_major,omitempty"`
	Notes        string `json:"notes,omitempty"`
}

// cudaMinusSMIMiB is the median gap between the CUDA-runtime total and the
// nvidia-smi total over the six NVIDIA parts where both were observed
// (H20 -586, H100 -474, H100 PCIe -551, H200 -615, B200 -723, L40S -479).
// It is used only for parts whose CUDA total was not found.
const cudaMinusSMIMiB = 568

func derivedCUDA(smi float64) float64 { return smi - cudaMinusSMIMiB }

var gpuTable = []GPU{
	{ID: "h20-96g", Name: "NVIDIA H20", Vendor: "nvidia", MemoryMiB: 97285, SMIMemoryMiB: 97871, HBMBandwidthGBytesPerS: 4000, BF16TFLOPS: 148, FP8TFLOPS: 296, IntraNodeGBytesPerS: 450, ComputeMajor: 9, IntraNodeKind: "nvlink", SMs: 78},
	{ID: "h20-141g", Name: "NVIDIA H20-3e", Vendor: "nvidia", MemoryMiB: derivedCUDA(143771), SMIMemoryMiB: 143771, HBMBandwidthGBytesPerS: 4800, BF16TFLOPS: 148, FP8TFLOPS: 296, IntraNodeGBytesPerS: 450, ComputeMajor: 9, IntraNodeKind: "nvlink", Notes: "CUDA total derived (nvidia-smi - 568 MiB); bandwidth from a third-party table"},
	{ID: "h100-sxm", Name: "NVIDIA H100 80GB HBM3", Vendor: "nvidia", MemoryMiB: 81085, SMIMemoryMiB: 81559, HBMBandwidthGBytesPerS: 3350, BF16TFLOPS: 989, FP8TFLOPS: 1979, IntraNodeGBytesPerS: 450, ComputeMajor: 9, IntraNodeKind: "nvlink", SMs: 132},
	{ID: "h100-pcie", Name: "NVIDIA H100 PCIe", Vendor: "nvidia", MemoryMiB: 81008, SMIMemoryMiB: 81559, HBMBandwidthGBytesPerS: 2000, BF16TFLOPS: 756.5, FP8TFLOPS: 1513, IntraNodeGBytesPerS: 64, ComputeMajor: 9, IntraNodeKind: "pcie", SMs: 114},
	{ID: "h200", Name: "NVIDIA H200", Vendor: "nvidia", MemoryMiB: 143156, SMIMemoryMiB: 143771, HBMBandwidthGBytesPerS: 4800, BF16TFLOPS: 989, FP8TFLOPS: 1979, IntraNodeGBytesPerS: 450, ComputeMajor: 9, IntraNodeKind: "nvlink", SMs: 132},
	{ID: "h800", Name: "NVIDIA H800", Vendor: "nvidia", MemoryMiB: derivedCUDA(81559), SMIMemoryMiB: 81559, HBMBandwidthGBytesPerS: 3350, BF16TFLOPS: 989, FP8TFLOPS: 1979, IntraNodeGBytesPerS: 200, ComputeMajor: 9, IntraNodeKind: "nvlink", Notes: "NVLink cut to 400 GB/s bidirectional; CUDA total derived"},
	{ID: "a100-80g", Name: "NVIDIA A100-SXM4-80GB", Vendor: "nvidia", MemoryMiB: derivedCUDA(81920), SMIMemoryMiB: 81920, HBMBandwidthGBytesPerS: 2039, BF16TFLOPS: 312, IntraNodeGBytesPerS: 300, ComputeMajor: 8, IntraNodeKind: "nvlink", SMs: 108, Notes: "no FP8 tensor cores; CUDA total derived"},
	{ID: "a800", Name: "NVIDIA A800-SXM4-80GB", Vendor: "nvidia", MemoryMiB: derivedCUDA(81920), SMIMemoryMiB: 81920, HBMBandwidthGBytesPerS: 2039, BF16TFLOPS: 312, IntraNodeGBytesPerS: 200, ComputeMajor: 8, IntraNodeKind: "nvlink", Notes: "NVLink cut to 400 GB/s bidirectional; no FP8; CUDA total derived"},
	{ID: "b200", Name: "NVIDIA B200", Vendor: "nvidia", MemoryMiB: 182636, SMIMemoryMiB: 183359, HBMBandwidthGBytesPerS: 7700, BF16TFLOPS: 2250, FP8TFLOPS: 4500, IntraNodeGBytesPerS: 900, ComputeMajor: 10, IntraNodeKind: "nvlink", SMs: 148, Notes: "bandwidth: NVIDIA HGX table 7.7 TB/s (others say 8)"},
	{ID: "l40s", Name: "NVIDIA L40S", Vendor: "nvidia", MemoryMiB: 45589, SMIMemoryMiB: 46068, HBMBandwidthGBytesPerS: 864, BF16TFLOPS: 362.05, FP8TFLOPS: 733, IntraNodeGBytesPerS: 32, ComputeMajor: 8, IntraNodeKind: "pcie", SMs: 142},
	{ID: "l4", Name: "NVIDIA L4", Vendor: "nvidia", MemoryMiB: derivedCUDA(23034), SMIMemoryMiB: 23034, HBMBandwidthGBytesPerS: 300, BF16TFLOPS: 121, FP8TFLOPS: 242, IntraNodeGBytesPerS: 32, ComputeMajor: 8, IntraNodeKind: "pcie", Notes: "CUDA total derived"},
	{ID: "mi300x", Name: "AMD Instinct MI300X", Vendor: "amd", MemoryMiB: 196592, SMIMemoryMiB: 196288, HBMBandwidthGBytesPerS: 5300, BF16TFLOPS: 1307.4, FP8TFLOPS: 2614.9, IntraNodeGBytesPerS: 448, IntraNodeKind: "xgmi", SMs: 304, Notes: "xGMI aggregate unresolved between sources (448 vs 896 GB/s); 448 used"},
}

// GPUs returns the GPU catalog sorted by id.
func GPUs() []*GPU {
	out := make([]*GPU, len(gpuTable))
	for i := range gpuTable {
		g := gpuTable[i]
		out[i] = &g
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// gpuAliases maps common spellings to catalog ids.
var gpuAliases = map[string]string{
	"h20": "h20-96g", "h20-96gb": "h20-96g", "h20-3e": "h20-141g", "h20-141gb": "h20-141g",
	"h100": "h100-sxm", "h100-80g": "h100-sxm", "h200-141g": "h200", "h200-sxm": "h200",
	"a100": "a100-80g", "a100-80gb": "a100-80g", "a800-80g": "a800",
}

// LookupGPU returns the GPU with the given id or alias (case-insensitive).
func LookupGPU(id string) (*GPU, error) {
	key := strings.ToLower(strings.TrimSpace(id))
	if alias, ok := gpuAliases[key]; ok {
		key = alias
	}
	for i := range gpuTable {
		if gpuTable[i].ID == key {
			g := gpuTable[i]
			return &g, nil
		}
	}
	ids := make([]string, len(gpuTable))
	for i := range gpuTable {
		ids[i] = gpuTable[i].ID
	}
	return nil, &UnknownError{Kind: "GPU", Name: id, Suggestions: Suggest(id, ids), Known: ids}
}

// MemoryGiB is the CUDA-visible total in GiB.
func (g *GPU) MemoryGiB() float64 { return g.MemoryMiB / 1024 }

// Blackwell reports an NVIDIA part of the Blackwell generation or newer
// (compute capability 10 and up: B200, GB200, B300, ...), where vLLM picks
// its Blackwell kernels (FlashInfer MXFP4 MoE, CUTLASS/FlashInfer MLA). A
// GPU of unknown capability is not.
func (g *GPU) Blackwell() bool { return g != nil && g.ComputeMajor >= 10 }

// computeMajorByName maps name fragments of NVIDIA parts to their compute
// capability major, most specific first, for GPUs described by their
// figures only (custom GPUs in a spec).
var computeMajorByName = []struct {
	fragment string
	major    int
}{
	{"GB300", 10}, {"GB200", 10}, {"B300", 10}, {"B200", 10},
	{"GH200", 9}, {"H200", 9}, {"H100", 9}, {"H800", 9}, {"H20", 9},
	{"A100", 8}, {"A800", 8}, {"L40", 8}, {"L4", 8},
}

// GuessComputeMajor is the compute capability major of an NVIDIA part
// named name (as nvidia-smi or a spec writes it), 0 when unknown.
func GuessComputeMajor(name string) int {
	up := strings.ToUpper(name)
	for _, e := range computeMajorByName {
		if strings.Contains(up, e.fragment) {
			return e.major
		}
	}
	return 0
}
