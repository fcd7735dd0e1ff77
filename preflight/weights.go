package preflight

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
)

// mxfp4BytesPerParam: 4-bit values plus one 8-bit scale per 32 values
// (OCP MX format) = 4.25 bits.
const mxfp4BytesPerParam = 4.25 / 8

// checkpointBytes is the expected size of the checkpoint's weight files:
// the estimator's figure when wired in, else fallbackCheckpointBytes.
func (e *env) checkpointBytes() (float64, string) {
	if h := e.opts.Expect.CheckpointBytes; h != nil {
		if b, ok := h(); ok {
			return b, "estimate"
		}
	}
	m := e.sizedModel()
	return fallbackCheckpointBytes(m), "catalog parameter counts × " + m.CheckpointDType()
}

// sizedModel is checkpointModel in the format resolve.Deployment.
// CheckpointDType says the checkpoint on disk ships: a pre-quantized copy
// model.path names on a 16-bit catalog model (RedHatAI/Llama-3.3-70B-
// Instruct-FP8-dynamic) holds FP8 or INT8 linear layers, half the bytes
// of the catalog's BF16 (fix40d: it was expected at 2×). A 4-bit copy's
// layout (group size, which layers) is in a config vlaunch has not read:
// sized as the catalog's 16-bit, as before, rather than guessed.
func (e *env) sizedModel() *catalog.Model {
	m := e.checkpointModel()
	ckpt := e.r.CheckpointDType()
	if e.r.PathQuant() == "" || ckpt == m.CheckpointDType() {
		return m
	}
	c := *m
	switch ckpt {
	case "fp8":
		c.Quant = catalog.Quantization{Method: "fp8"}
	case "int8":
		c.Quant = catalog.Quantization{Method: "compressed-tensors", WeightType: "int", WeightBits: []int{8}}
	}
	return &c
}

// fallbackCheckpointBytes counts the parameters the checkpoint stores
// (including MTP layers, which the checkpoint ships even though vLLM does
// not serve them by default) at the bytes each part is stored in: quantized
// methods store the linear layers (fp8) or only the routed experts (mxfp4)
// narrow; embeddings, norms and routers stay in the torch dtype.
// Quantization scales are ignored (≈0.02% for 128×128 fp8 blocks).
func fallbackCheckpointBytes(m *catalog.Model) float64 {
	pc := m.ParamCounts()
	wide := dtypeBytes(m.TorchDType)
	mtp := mtpParams(m, pc)
	linear := pc.Attention + pc.DenseMLP + pc.SharedExperts + pc.RoutedExperts + mtp
	other := pc.Embedding + pc.LMHead + pc.Norms + pc.Router
	switch m.CheckpointDType() {
	case "fp8", "int8":
		return linear*1 + other*wide
	case "mxfp4":
		if m.Quant.Format == catalog.FormatMXFP4 {
			// compressed-tensors MXFP4: its config groups and ignore list.
			return m.FourBitWeightBytes() + mtp*wide
		}
		return pc.RoutedExperts*mxfp4BytesPerParam + (linear-pc.RoutedExperts+other)*wide
	case catalog.FormatNVFP4, catalog.FormatINT4:
		// The served layers as the exclusion list leaves them; MTP layers
		// counted 16-bit (ModelOpt's DeepSeek and GLM NVFP4 exports exclude
		// them: "model.layers.61*").
		return m.FourBitWeightBytes() + mtp*wide
	}
	return (linear + other) * wide
}

// mtpParams: each MTP module is one more decoder layer (MoE when the model
// is) plus its eh_proj (2H×H) projection.
func mtpParams(m *catalog.Model, pc catalog.ParamCounts) float64 {
	if m.NumNextNPredictLayers == 0 {
		return 0
	}
	h := float64(m.HiddenSize)
	layer := pc.AttentionPerLayer + pc.DenseMLPPerLayer
	if m.IsMoE() {
		layer = pc.AttentionPerLayer + pc.SharedPerLayer + pc.RouterPerLayer + float64(m.NumExperts)*pc.ExpertPerLayerEach
	}
	return float64(m.NumNextNPredictLayers) * (layer + 2*h*h)
}

func dtypeBytes(torch string) float64 {
	if torch == "float32" {
		return 4
	}
	return 2
}

// shardSet is what the model directory holds.
type shardSet struct {
	Bytes float64
	Files int
	// IndexTotal is metadata.total_size from model.safetensors.index.json (0 = no index).
	IndexTotal float64
	// Missing lists shards the index names that are not on disk (without
	// an index, those the shard names' "-of-N" count says should be).
	Missing []string
	// Index: the directory has model.safetensors.index.json.
	Index bool
	// Expected is the number of shards the index lists (or the names
	// count); FromNames says it came from the names.
	Expected  int
	FromNames bool
}

// safetensors sums the *.safetensors files in dir and checks them against
// the index file when there is one.
func (e *env) safetensors(dir string) (shardSet, error) {
	ents, err := fs.ReadDir(e.host.FS, fsPath(dir))
	if err != nil {
		return shardSet{}, err
	}
	var s shardSet
	have := map[string]bool{}
	for _, ent := range ents {
		if !strings.HasSuffix(ent.Name(), ".safetensors") {
			continue
		}
		if info, err := shardInfo(e.host.FS, dir, ent); err == nil {
			s.Bytes += float64(info.Size())
			s.Files++
			have[ent.Name()] = true
		}
	}
	idx, err := e.readFile(path.Join(dir, "model.safetensors.index.json"))
	if err != nil {
		s.applyShardNames(have)
		return s, nil
	}
	s.Index = true
	return s, s.applyIndex(idx, have)
}

// shardInfo stats a shard, following symlinks: the Hugging Face cache keeps
// snapshot files as links into blobs/, and a link's own size is a few bytes.
func shardInfo(fsys fs.FS, dir string, ent fs.DirEntry) (fs.FileInfo, error) {
	if ent.Type()&fs.ModeSymlink != 0 {
		return fs.Stat(fsys, fsPath(path.Join(dir, ent.Name())))
	}
	return ent.Info()
}

// applyIndex reads the index's total size and finds shards it names that
// are missing.
func (s *shardSet) applyIndex(data []byte, have map[string]bool) error {
	var idx struct {
		Metadata struct {
			TotalSize float64 `json:"total_size"`
		} `json:"metadata"`
		WeightMap map[string]string `json:"weight_map"`
	}
	if err := json.Unmarshal(data, &idx); err != nil {
		return fmt.Errorf("model.safetensors.index.json: %v", err)
	}
	s.IndexTotal = idx.Metadata.TotalSize
	seen := map[string]bool{}
	for _, f := range idx.WeightMap {
		if seen[f] {
			continue
		}
		seen[f] = true
		s.Expected++
		if !have[f] {
			s.Missing = append(s.Missing, f)
		}
	}
	sortStrings(s.Missing)
	return nil
}
