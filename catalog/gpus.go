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
	// FP4TFLOPS is the dense peak of the 4-bit tensor-core formats (NVFP4 /
	// MXFP4 on Blackwell, MXFP4 on CDNA4); 0 where the part has none or no
	// figure was found. Recorded for the FP4 GEMM and MoE rates issue #23
	// asks for; the estimator does not read it yet.
	FP4TFLOPS float64 `json:"fp4_tflops,omitempty"`
	// INT8TOPS is the dense INT8 tensor-core peak (tera-operations per
	// second), what an INT8 W8A8 checkpoint's GEMMs run at (vLLM's
	// CompressedTensorsW8A8Int8, cutlass_scaled_mm on int8); 0 where no
	// datasheet figure was read: the step model then prices INT8 GEMMs at
	// BF16TFLOPS and check says so. Sources: the int8Sources comment in
	// the parts table.
	INT8TOPS float64 `json:"int8_tops,omitempty"`
	// IntraNodeGBytesPerS is the GPU-to-GPU link, per GPU and per direction.
	IntraNodeGBytesPerS float64 `json:"intra_node_gbytes_per_s"`
	IntraNodeKind       string  `json:"intra_node_kind"`
	// NVLinkDomainGPUs is the largest multi-node NVLink domain (MNNVL) the
	// part ships in: NVLink at IntraNodeGBytesPerS between the GPUs of
	// several nodes (72: the 18 compute trays of 4 GPUs of a GB200/GB300
	// NVL72 rack). 0: NVLink ends at the node.
	NVLinkDomainGPUs int `json:"nvlink_domain_gpus,omitempty"`
	SMs              int `json:"sms,omitempty"`
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

// MI300X, the one AMD part observed, reports 16 MiB below its nominal
// 192 GiB to torch (196592 MiB) and 320 MiB below it to rocm-smi (196288
// MiB). Parts whose totals were not found are derived from their nominal
// GiB with the same offsets.
const (
	amdTorchBelowNominalMiB = 16
	amdSMIBelowNominalMiB   = 320
)

func amdTorchMiB(gib float64) float64 { return gib*1024 - amdTorchBelowNominalMiB }
func amdSMIMiB(gib float64) float64   { return gib*1024 - amdSMIBelowNominalMiB }

var gpuTable = []GPU{
	{ID: "h20-96g", Name: "NVIDIA H20", Vendor: "nvidia", MemoryMiB: 97285, SMIMemoryMiB: 97871, HBMBandwidthGBytesPerS: 4000, BF16TFLOPS: 148, FP8TFLOPS: 296, INT8TOPS: 296, IntraNodeGBytesPerS: 450, ComputeMajor: 9, IntraNodeKind: "nvlink", SMs: 78},
	{ID: "h20-141g", Name: "NVIDIA H20-3e", Vendor: "nvidia", MemoryMiB: derivedCUDA(143771), SMIMemoryMiB: 143771, HBMBandwidthGBytesPerS: 4800, BF16TFLOPS: 148, FP8TFLOPS: 296, INT8TOPS: 296, IntraNodeGBytesPerS: 450, ComputeMajor: 9, IntraNodeKind: "nvlink", Notes: "CUDA total derived (nvidia-smi - 568 MiB); bandwidth from a third-party table"},
	{ID: "h100-sxm", Name: "NVIDIA H100 80GB HBM3", Vendor: "nvidia", MemoryMiB: 81085, SMIMemoryMiB: 81559, HBMBandwidthGBytesPerS: 3350, BF16TFLOPS: 989, FP8TFLOPS: 1979, INT8TOPS: 1979, IntraNodeGBytesPerS: 450, ComputeMajor: 9, IntraNodeKind: "nvlink", SMs: 132},
	{ID: "h100-pcie", Name: "NVIDIA H100 PCIe", Vendor: "nvidia", MemoryMiB: 81008, SMIMemoryMiB: 81559, HBMBandwidthGBytesPerS: 2000, BF16TFLOPS: 756.5, FP8TFLOPS: 1513, INT8TOPS: 1513, IntraNodeGBytesPerS: 64, ComputeMajor: 9, IntraNodeKind: "pcie", SMs: 114},
	{ID: "h200", Name: "NVIDIA H200", Vendor: "nvidia", MemoryMiB: 143156, SMIMemoryMiB: 143771, HBMBandwidthGBytesPerS: 4800, BF16TFLOPS: 989, FP8TFLOPS: 1979, INT8TOPS: 1979, IntraNodeGBytesPerS: 450, ComputeMajor: 9, IntraNodeKind: "nvlink", SMs: 132},
	// h800 SMs: "20 out of the 132 SMs available in the H800 GPU"
	// (DeepSeek-V3 technical report, arXiv 2412.19437, §3.5.1).
	{ID: "h800", Name: "NVIDIA H800", Vendor: "nvidia", MemoryMiB: derivedCUDA(81559), SMIMemoryMiB: 81559, HBMBandwidthGBytesPerS: 3350, BF16TFLOPS: 989, FP8TFLOPS: 1979, IntraNodeGBytesPerS: 200, SMs: 132, ComputeMajor: 9, IntraNodeKind: "nvlink", Notes: "NVLink cut to 400 GB/s bidirectional; CUDA total derived"},
	{ID: "a100-80g", Name: "NVIDIA A100-SXM4-80GB", Vendor: "nvidia", MemoryMiB: derivedCUDA(81920), SMIMemoryMiB: 81920, HBMBandwidthGBytesPerS: 2039, BF16TFLOPS: 312, INT8TOPS: 624, IntraNodeGBytesPerS: 300, ComputeMajor: 8, IntraNodeKind: "nvlink", SMs: 108, Notes: "no FP8 tensor cores; CUDA total derived"},
	// a100-40g: NVIDIA A100 datasheet (nvidia-a100-datasheet-us-nvidia-
	// 1758950-r4-web.pdf, the document cited for a100-80g in int8Sources
	// below), column 'A100 40GB SXM': GPU memory 40 GB HBM2, memory
	// bandwidth 1,555 GB/s, BF16 Tensor Core 312 TFLOPS (624 with
	// sparsity), INT8 624 TOPS (1,248 with sparsity), NVLink 600 GB/s
	// (bidirectional: 300 per direction), the same GA100 (108 SMs, compute
	// 8.0) as the 80 GB part. nvidia-smi prints 40960 MiB for an
	// 'NVIDIA A100-SXM4-40GB' (public nvidia-smi captures); the CUDA total
	// is derived (derivedCUDA), torch's out-of-memory messages on 40 GB
	// parts say 'total capacity of 39.39 GiB' (≈40,335 MiB, 57 MiB below).
	{ID: "a100-40g", Name: "NVIDIA A100-SXM4-40GB", Vendor: "nvidia", MemoryMiB: derivedCUDA(40960), SMIMemoryMiB: 40960, HBMBandwidthGBytesPerS: 1555, BF16TFLOPS: 312, INT8TOPS: 624, IntraNodeGBytesPerS: 300, ComputeMajor: 8, IntraNodeKind: "nvlink", SMs: 108, Notes: "40 GB HBM2 (1,555 GB/s); no FP8 tensor cores; CUDA total derived"},
	{ID: "a800", Name: "NVIDIA A800-SXM4-80GB", Vendor: "nvidia", MemoryMiB: derivedCUDA(81920), SMIMemoryMiB: 81920, HBMBandwidthGBytesPerS: 2039, BF16TFLOPS: 312, INT8TOPS: 624, IntraNodeGBytesPerS: 200, ComputeMajor: 8, IntraNodeKind: "nvlink", Notes: "NVLink cut to 400 GB/s bidirectional; no FP8; CUDA total derived"},
	{ID: "b200", Name: "NVIDIA B200", Vendor: "nvidia", MemoryMiB: 182636, SMIMemoryMiB: 183359, HBMBandwidthGBytesPerS: 7700, BF16TFLOPS: 2250, FP8TFLOPS: 4500, FP4TFLOPS: 9000, INT8TOPS: 4500, IntraNodeGBytesPerS: 900, ComputeMajor: 10, IntraNodeKind: "nvlink", SMs: 148, Notes: "bandwidth: NVIDIA HGX table 7.7 TB/s (others say 8); FP4 dense: HGX B200 NVFP4 72 PF / 8 (NVIDIA Blackwell datasheet)"},
	{ID: "l40s", Name: "NVIDIA L40S", Vendor: "nvidia", MemoryMiB: 45589, SMIMemoryMiB: 46068, HBMBandwidthGBytesPerS: 864, BF16TFLOPS: 362.05, FP8TFLOPS: 733, INT8TOPS: 733, IntraNodeGBytesPerS: 32, ComputeMajor: 8, IntraNodeKind: "pcie", SMs: 142},
	{ID: "l4", Name: "NVIDIA L4", Vendor: "nvidia", MemoryMiB: derivedCUDA(23034), SMIMemoryMiB: 23034, HBMBandwidthGBytesPerS: 300, BF16TFLOPS: 121, FP8TFLOPS: 242, INT8TOPS: 242.5, IntraNodeGBytesPerS: 32, ComputeMajor: 8, IntraNodeKind: "pcie", Notes: "CUDA total derived"},
	{ID: "mi300x", Name: "AMD Instinct MI300X", Vendor: "amd", MemoryMiB: 196592, SMIMemoryMiB: 196288, HBMBandwidthGBytesPerS: 5300, BF16TFLOPS: 1307.4, FP8TFLOPS: 2614.9, INT8TOPS: 2614.9, IntraNodeGBytesPerS: 448, IntraNodeKind: "xgmi", SMs: 304, Notes: "xGMI: 7 x16 Infinity Fabric links to the other 7 GPUs, 896 GB/s peak aggregate P2P (both directions) in an 8-GPU node = 448 per direction (AMD CDNA 3 white paper, Table 2; links at 32 Gbps x 16 lanes = 64 GB/s per direction each)"},

	// int8Sources: the dense INT8 tensor-core peaks (INT8TOPS), sparse
	// figures halved. [A100] NVIDIA A100 datasheet (nvidia-a100-datasheet-
	// us-nvidia-1758950-r4-web.pdf) as tabulated at glennklockwood.com/
	// garden/processors/A100: INT8 624 | 1,248 sparse, BF16 312. [A800]
	// hmc-tech.com/gpu/nvidia-a800-vs-nvidia-t40 (GA100 spec table): INT8
	// 623.74 TOPS tensor | 1.25 POPS sparse, BF16 311.87. [H100] NVIDIA H100
	// datasheet / Hopper whitepaper as tabulated at glennklockwood.com/
	// garden/processors/h100: INT8 1,978.9 | 3,957.8 sparse, equal to FP8;
	// the same page: "H200 GPUs are the same as H100 GPUs ..., just with 144
	// GB of HBM3e". [H20] the H20 rows' sources (willitrunai, a Chinese press
	// summary, citsjtu2020/LLM-Prof's hardware_specs): INT8 296, equal to
	// FP8. [B200/GB200] NVIDIA Blackwell datasheet as tabulated at
	// glennklockwood.com/garden/processors/B200: HGX B200 INT8 4,500 | 9,000
	// sparse, GB200 5,000 | 10,000, equal to FP8.
	// Added for issue #23 (data23), vendor documents only, dense as printed
	// unless the document itself says dense is half the sparse figure:
	// [H100 PCIe] NVIDIA H100 Tensor Core GPU Architecture whitepaper v1.04,
	// Table 3 (pp. 39-40): INT8 Tensor 1,513 | 3,026 TOPS dense | sparse, at
	// 1,620 MHz (as cited page by page in a public H100 PCIe spec card that
	// reads the whitepaper and the product brief PB-11133-001_v02). [GH200] NVIDIA
	// GH200 datasheet (nvdam.widen.net/s/rrgqqnpbz8, reproduced in
	// atineoSE/coding-model-seeks-gpu pipeline/pipeline/sources/
	// gh200_specs.md @ff05294): INT8 Tensor Core 3,958 TOPS* | 1,979 TOPS.
	// [L40S] NVIDIA L40S datasheet (Chinese edition 2023-09-25, and
	// nvidia.com/en-us/data-center/l40s as quoted in public catalogs): INT8
	// 733 | 1,466* (* with sparsity), equal to FP8. [L4] NVIDIA L4 datasheet:
	// INT8 485 TOPS*, "* Shown with sparsity. Specifications are one-half
	// lower without sparsity" (the sheet prints sparse first), so 242.5 dense,
	// equal to its FP8. [B300/GB300] NVIDIA Blackwell Ultra datasheet
	// (resources.nvidia.com/en-us-blackwell-architecture/blackwell-ultra-
	// datasheet) as NVIDIA's aiconfigurator reads it (systems/b300_sxm.yaml
	// @84ba899: "153.5 TFLOPS (307 TOPS sparse / 2)"; systems/gb300.yaml
	// @865aa0e: 165), the same reading the entries' other figures come from;
	// the Blackwell datasheet states dense = half of sparse for its Tensor
	// Core rows. Blackwell Ultra cut INT8 to about 1/15 of B200's: an INT8
	// W8A8 checkpoint on B300 runs far below its BF16 rate. (verda.com's
	// GB300 article gives the same 0.15 / 0.165 POPS dense.) [MI300X/MI325X]
	// AMD CDNA 3 architecture white paper, Table 2: INT8 2,614.9 | 5,229.8
	// TOPs dense | sparsity, equal to FP8; its "Scale-up | scale-out" rows
	// give both "7 x16 AMD Infinity Fabric links, 1x16 PCIe Gen 5 to host
	// CPU" and "P2P ring peak aggregate I/O bandwidth 896 GB/s (8 GPUs)"
	// (www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/
	// white-papers/amd-cdna-3-white-paper.pdf, the 2025 edition with the
	// MI325X column; its text: links "enhanced to operate at up to 32Gbps",
	// "16-lane, bi-directional"): 7 x 64 GB/s = 448 GB/s per direction, the
	// IntraNodeGBytesPerS both carry (896 is the two directions summed, not a
	// second figure). [MI355X] AMD CDNA 4 architecture
	// white paper, Table 1: INT8 8,192 ops per clock per CU dense, the same as
	// FP8 (256 CUs x 2.4 GHz = 5,033 TOPS); recorded as the FP8 entry's 5,000.
	// Still unknown, so 0 (INT8 GEMMs priced at BF16, check says so): H800
	// (no NVIDIA H800 datasheet found; H100 SXM's silicon, but third-party
	// pages only) and RTX PRO 6000 Blackwell (its datasheets print only
	// "4000 AI TOPS", FP4 with sparsity; aiconfigurator's 935.6 is a clock
	// scaling, not a datasheet figure).

	// Parts added for issue #23. Figures are per GPU; TFLOPS dense (the
	// sparse datasheet figure halved where only that is printed); links per
	// direction. Sources, one per figure unless the note says otherwise:
	//  [BW]  NVIDIA Blackwell datasheet, nvdam.widen.net/s/wwnsxrhm2w/blackwell-datasheet-3384703
	//        (table reproduced in atineoSE/coding-model-seeks-gpu pipeline/pipeline/sources/gb200_specs.md):
	//        GB200 NVL72 per GPU FP4 20 PF, FP8 10 PF, BF16 5 PF (sparse; dense = half),
	//        186 GB HBM3E | 8 TB/s, NVLink 5 1.8 TB/s, up to 1,200 W; rack NVFP4 1,440 | 720 PF.
	//  [BU]  NVIDIA Blackwell Ultra datasheet, resources.nvidia.com/en-us-blackwell-architecture/blackwell-ultra-datasheet,
	//        as read by NVIDIA's aiconfigurator (systems/b300_sxm.yaml, gb300.yaml; redhat-performance/aiconfigurator @f576734):
	//        B300 BF16 2250, FP8 4500, FP4 14000 dense (18 PF sparse), 7.75 TB/s, 1,100 W;
	//        GB300 BF16 2500, FP8 5000, FP4 15000, 8 TB/s, 1,400 W; both NVLink 900 GB/s per direction.
	//  [GH]  NVIDIA GH200 datasheet, nvdam.widen.net/s/rrgqqnpbz8/grace-datasheet-gh200-grace-hopper-superchip-3773000
	//        (reproduced in atineoSE/coding-model-seeks-gpu .../gh200_specs.md): BF16 1,979* | 990, FP8 3,958* | 1,979
	//        (* sparse), 96 GB HBM3 up to 4 TB/s (144 GB HBM3e 4.9 TB/s), NVLink-C2C 900 GB/s CPU-to-GPU.
	//  [SMI] nvidia-smi totals seen in public files: "NVIDIA B300 SXM6 AC, 275040 MiB", "NVIDIA GB200, 189471 MiB",
	//        "NVIDIA GB300, 284208 MiB" (also aiconfigurator's mem_capacity comments), "NVIDIA GH200 480GB, 97871 MiB",
	//        "NVIDIA RTX PRO 6000 Blackwell Server Edition, 97887 MiB".
	//  [ROCm] rocm.docs.amd.com reference/gpu-specs: MI325X gfx942 256 GiB, 304 CUs; MI355X gfx950 288 GiB, 256 CUs.
	//  [AMD] AMD product pages as tabulated in stas00/ml-engineering compute/accelerator/README.md:
	//        MI325X same compute as MI300X (BF16 1307.4, FP8 2614.9); MI355X BF16 2500 (clock formula 2516.6),
	//        FP8 5000, MXFP4 10100, all dense. Bandwidth: MI325X 6.0 TB/s (AMD MI325X page via
	//        docs.vultr.com/inference-cookbook/rocm/getting-started/hardware-requirements), MI355X 8 TB/s.
	{ID: "b300", Name: "NVIDIA B300 SXM6 AC", Vendor: "nvidia", MemoryMiB: derivedCUDA(275040), SMIMemoryMiB: 275040, HBMBandwidthGBytesPerS: 7750, BF16TFLOPS: 2250, FP8TFLOPS: 4500, FP4TFLOPS: 14000, INT8TOPS: 153.5, IntraNodeGBytesPerS: 900, ComputeMajor: 10, IntraNodeKind: "nvlink",
		Notes: "HGX B300, 288 GB HBM3e; figures from the NVIDIA Blackwell Ultra datasheet as NVIDIA's aiconfigurator reads it; CUDA total derived (nvidia-smi - 568 MiB); bandwidth 7.75 TB/s there (other pages: up to 8); FP4 dense 14 PF there (13.1-13.5 from HGX 8-GPU totals elsewhere); compute capability 10.3"},
	{ID: "gb200", Name: "NVIDIA GB200", Vendor: "nvidia", MemoryMiB: derivedCUDA(189471), SMIMemoryMiB: 189471, HBMBandwidthGBytesPerS: 8000, BF16TFLOPS: 2500, FP8TFLOPS: 5000, FP4TFLOPS: 10000, INT8TOPS: 5000, IntraNodeGBytesPerS: 900, ComputeMajor: 10, IntraNodeKind: "nvlink", NVLinkDomainGPUs: nvl72GPUs,
		Notes: "Blackwell GPU of a GB200 NVL72 tray, 186 GB HBM3E; figures from the NVIDIA Blackwell datasheet; CUDA total derived (nvidia-smi - 568 MiB); GB200 NVL72: 72 GPUs in one NVLink domain across 18 compute trays of 4 GPUs (a tray is a node; hardware.network.nvlink_domain joins trays into the rack's NVLink domain)"},
	{ID: "gb300", Name: "NVIDIA GB300", Vendor: "nvidia", MemoryMiB: derivedCUDA(284208), SMIMemoryMiB: 284208, HBMBandwidthGBytesPerS: 8000, BF16TFLOPS: 2500, FP8TFLOPS: 5000, FP4TFLOPS: 15000, INT8TOPS: 165, IntraNodeGBytesPerS: 900, ComputeMajor: 10, IntraNodeKind: "nvlink", NVLinkDomainGPUs: nvl72GPUs,
		Notes: "Blackwell Ultra GPU of a GB300 NVL72 tray, 288 GB HBM3e; figures from the NVIDIA Blackwell Ultra datasheet as aiconfigurator reads it (rack: 1,080 PF dense FP4, 576 TB/s, 130 TB/s NVLink / 72); CUDA total derived (nvidia-smi - 568 MiB); compute capability 10.3; GB300 NVL72: 72 GPUs in one NVLink domain across 18 compute trays of 4 GPUs (a tray is a node; hardware.network.nvlink_domain joins trays into the rack's NVLink domain)"},
	{ID: "gh200", Name: "NVIDIA GH200 480GB", Vendor: "nvidia", MemoryMiB: derivedCUDA(97871), SMIMemoryMiB: 97871, HBMBandwidthGBytesPerS: 4000, BF16TFLOPS: 989, FP8TFLOPS: 1979, INT8TOPS: 1979, IntraNodeGBytesPerS: 450, ComputeMajor: 9, IntraNodeKind: "nvlink", SMs: 132,
		Notes: "Hopper GPU of a GH200 superchip with 96 GB HBM3 (the 144 GB HBM3e part, nvidia-smi 146831 MiB, 4.9 TB/s, is not this entry); figures from the NVIDIA GH200 datasheet; CUDA total derived (nvidia-smi - 568 MiB); 132 SMs from an OpenCL device query (mredenti/PowerCapping); GPU-to-GPU link taken as H100's 18 NVLink4 links (450 GB/s per direction, multi-GH200 nodes), not read from a GH200 datasheet; NVLink-C2C's 900 GB/s is CPU-to-GPU and not counted"},
	{ID: "mi325x", Name: "AMD Instinct MI325X", Vendor: "amd", MemoryMiB: amdTorchMiB(256), SMIMemoryMiB: amdSMIMiB(256), HBMBandwidthGBytesPerS: 6000, BF16TFLOPS: 1307.4, FP8TFLOPS: 2614.9, INT8TOPS: 2614.9, IntraNodeGBytesPerS: 448, IntraNodeKind: "xgmi", SMs: 304,
		Notes: "256 GB HBM3E, CDNA3 gfx942, 304 CUs (ROCm GPU specs); compute as MI300X (AMD product page); memory totals derived from 256 GiB by MI300X's observed offsets; xGMI 7 x16 Infinity Fabric links, 896 GB/s peak aggregate P2P (both directions) = 448 per direction, as MI300X (AMD CDNA 3 white paper, Table 2)"},
	{ID: "mi355x", Name: "AMD Instinct MI355X", Vendor: "amd", MemoryMiB: amdTorchMiB(288), SMIMemoryMiB: amdSMIMiB(288), HBMBandwidthGBytesPerS: 8000, BF16TFLOPS: 2500, FP8TFLOPS: 5000, FP4TFLOPS: 10100, INT8TOPS: 5000, IntraNodeGBytesPerS: 537.6, IntraNodeKind: "xgmi", SMs: 256,
		Notes: "288 GB HBM3E, CDNA4 gfx950, 256 CUs (ROCm GPU specs); TFLOPS from the AMD product page (dense; FP4 = MXFP4); memory totals derived from 288 GiB by MI300X's observed offsets; xGMI 7 links x 153.6 GB/s bidirectional = 537.6 per direction (third-party figure, AMD primary not read)"},
	// RTX PRO 6000 Blackwell Server Edition: PCIe card, no NVLink. CUDA total
	// and SM count from torch (_CudaDeviceProperties(... Server Edition',
	// major=12, minor=0, total_memory=97250MB, multi_processor_count=188));
	// bandwidth 1792 GB/s (512-bit GDDR7 at 28 Gbps, NVIDIA RTX PRO 6000
	// Blackwell Workstation Edition datasheet; the Server Edition datasheet was
	// not read); TFLOPS from NVIDIA's aiconfigurator
	// (systems/rtx_pro_6000_server.yaml: dense, scaled to the 2430 MHz maximum
	// SM clock seen on a Server Edition node; the datasheet's 4,000 AI TOPS is
	// FP4 with sparsity, about 2,000 dense at boost clock); PCIe Gen5 x16,
	// 64 GB/s per direction.
	{ID: "rtx-pro-6000", Name: "NVIDIA RTX PRO 6000 Blackwell Server Edition", Vendor: "nvidia", MemoryMiB: 97250, SMIMemoryMiB: 97887, HBMBandwidthGBytesPerS: 1792, BF16TFLOPS: 467.8, FP8TFLOPS: 935.6, FP4TFLOPS: 1871.2, IntraNodeGBytesPerS: 64, ComputeMajor: 12, IntraNodeKind: "pcie", SMs: 188,
		Notes: "96 GB GDDR7 with ECC, PCIe Gen5 x16 only (no NVLink); TFLOPS at the 2430 MHz clock observed by NVIDIA's aiconfigurator; compute capability 12.0 (not datacenter Blackwell: vLLM's SM100 kernels do not run)"},
	// GeForce RTX 3090 (GA102, Ampere, compute capability 8.6): a consumer
	// PCIe card (issue #23's Kimi-Linear log, vllm-project/vllm#28228, ran
	// two). 82 SMs, 24 GB GDDR6X at 936 GB/s, "FP16 TFLOPS (Sparsity) 142
	// (285)": a public copy of the card's specification table
	// (holynerdvana.blogspot.com, 2022-11-01). NVIDIA's Ampere GA102 GPU
	// Architecture whitepaper V2.0 has the card in Appendix A (its
	// docslib.org copy's contents list; the table itself was not read here).
	// On GeForce parts the FP32-accumulate tensor rate, what vLLM's BF16/FP16
	// GEMMs run, is half the FP16-accumulate one: 71 (derived, as is INT8 284
	// = 2 × 142; not read from NVIDIA). CUDA total 24146 MiB: the
	// "total_gpu_memory=23.58GiB" two vLLM logs of RTX 3090s print
	// (vllm-project/vllm#10517, a 2024-12-02 comment; PR #14447, a
	// 2025-04-12 comment), the figure vlaunch's replay already took for one
	// (published/vllm-memory-logs.yaml, qwen3vl-30b-a3b-sipeed-rtx3090-tp4);
	// torch's device properties print 24259 or 24268 MiB on other machines
	// (total_memory=24259MB, code search id 31224020222), 0.5% more, so the
	// total varies with the driver. nvidia-smi 24576 MiB (24 GiB). No FP8.
	// PCIe Gen4 x16, 32 GB/s per direction; the optional NVLink bridge is
	// not assumed.
	{ID: "rtx-3090", Name: "NVIDIA GeForce RTX 3090", Vendor: "nvidia", MemoryMiB: 24146, SMIMemoryMiB: 24576, HBMBandwidthGBytesPerS: 936, BF16TFLOPS: 71, INT8TOPS: 284, IntraNodeGBytesPerS: 32, ComputeMajor: 8, IntraNodeKind: "pcie", SMs: 82,
		Notes: "24 GB GDDR6X, PCIe Gen4 x16 (the NVLink bridge some rigs add is not assumed); no FP8 tensor cores; BF16 71 TFLOPS dense with FP32 accumulate (half the FP16-accumulate 142 on GeForce, derived); compute capability 8.6"},
	// DGX Spark's GB10: one GPU per system, 128 GB LPDDR5X shared with the
	// CPU at 273 GB/s (NVIDIA DGX Spark product page and hardware guide, via
	// aiconfigurator systems/gb10.yaml @f0f1266). CUDA total 128538451968 B
	// (119.7 GiB) per that file; no nvidia-smi total was found for the
	// unified-memory part, so SMIMemoryMiB is 0 (unknown). NVIDIA publishes
	// only "1 PFLOP FP4 with sparsity" (FP4 dense 500 = half; mmapeak measured
	// 427); BF16 213 and FP8 214 are aiconfigurator's mmapeak measurements
	// (FP8 does not double BF16 on SM12x). No GPU-to-GPU link: systems are
	// joined over ConnectX-7 (200 Gb/s), the inter-node fabric, so the intra
	// link figure is 0 and its kind "pcie" (no NVLS, no custom all-reduce).
	{ID: "gb10", Name: "NVIDIA GB10", Vendor: "nvidia", MemoryMiB: 122584, HBMBandwidthGBytesPerS: 273, BF16TFLOPS: 213, FP8TFLOPS: 214, FP4TFLOPS: 500, ComputeMajor: 12, IntraNodeKind: "pcie", SMs: 48,
		Notes: "DGX Spark: 128 GB LPDDR5X unified with the CPU (page cache competes with the KV cache); BF16/FP8 measured, not published; one GPU per system, no intra-node link; 48 SMs = 6,144 CUDA cores / 128; compute capability 12.1"},
}

// nvl72GPUs is the NVLink domain of a GB200 or GB300 NVL72 rack: 72 GPUs
// in 18 compute trays of 4, every GPU reaching every other at NVLink 5's
// 1.8 TB/s bidirectional (900 GB/s each way) through the rack's NVLink
// switch trays ([BW] above: "NVLink 5 1.8 TB/s" per GPU; [BU]: "130 TB/s
// NVLink" per rack = 72 × 1.8 TB/s).
const nvl72GPUs = 72

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
	"a100-40gb": "a100-40g", "a100-sxm4-40gb": "a100-40g",
}

// gpuAliasOthers lists, for an alias that names a family with more than
// one catalog variant, the variants it does not pick (qa44b F12: "h100"
// gave H100 SXM figures to an H100 PCIe owner, with nothing said): the
// pick's figures differ from theirs (bandwidth, memory, interconnect).
var gpuAliasOthers = map[string][]string{
	"h100": {"h100-pcie"}, "h100-80g": {"h100-pcie"},
	"a100": {"a100-40g"},
	"h20":  {"h20-141g"},
}

// GPUAliasChoice reports, for a name that is an alias of several catalog
// variants (case-insensitive), the variant it resolves to and the others;
// ok is false for an id or an unambiguous alias.
func GPUAliasChoice(name string) (picked string, others []string, ok bool) {
	key := strings.ToLower(strings.TrimSpace(name))
	others, ok = gpuAliasOthers[key]
	if !ok {
		return "", nil, false
	}
	return gpuAliases[key], others, true
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

// Blackwell reports a datacenter Blackwell part (compute capability 10.x:
// B200, GB200, B300, GB300), where vLLM picks its Blackwell kernels
// (FlashInfer MXFP4 MoE, CUTLASS/FlashInfer MLA), all built for the SM100
// family. The RTX PRO and GB10 Blackwell parts (12.x) are not: vLLM runs
// Marlin MoE and Triton attention there (a baseline analysis of vLLM on
// GB10, jaim12005/spark-vllm-mxfp4-docker: "SM121 falls through all
// optimized code paths"), as vllm.Release.MLABackend already assumes. A GPU
// of unknown capability is not.
func (g *GPU) Blackwell() bool { return g != nil && g.ComputeMajor == 10 }

// computeMajorByName maps name fragments of NVIDIA parts to their compute
// capability major, most specific first, for GPUs described by their
// figures only (custom GPUs in a spec).
var computeMajorByName = []struct {
	fragment string
	major    int
}{
	{"GB300", 10}, {"GB200", 10}, {"B300", 10}, {"B200", 10},
	{"RTX PRO", 12}, {"GB10", 12},
	{"GH200", 9}, {"H200", 9}, {"H100", 9}, {"H800", 9}, {"H20", 9},
	{"A100", 8}, {"A800", 8}, {"L40", 8}, {"L4", 8},
	// GeForce RTX 30 (Ampere, 8.6) and 40 (Ada, 8.9) series.
	{"RTX 30", 8}, {"RTX 40", 8},
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
