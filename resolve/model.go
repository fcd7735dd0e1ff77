package resolve

import (
	"fmt"
	"path/filepath"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/spec"
)

// Model resolves the deployment's model: the catalog entry model.name names,
// or the config.json at model.config (relative to the spec file's
// directory), with the hf_quant_config.json next to it when there is one. The returned model's ID is the catalog id or the config path
// as written.
func Model(d *spec.Deployment) (*catalog.Model, error) {
	if d.Model.Name != "" {
		return catalog.LookupModel(d.Model.Name)
	}
	if d.Model.Config == "" {
		return nil, fmt.Errorf("the spec names no model (model.name or model.config)")
	}
	path := ConfigPath(d)
	data, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	// A ModelOpt checkpoint may keep its quantization in the
	// hf_quant_config.json beside config.json (read as vLLM does).
	hfq, err := catalog.LoadHFQuantConfigNextTo(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read model config: %w", err)
	}
	m, err := catalog.ParseHFConfigWithQuant(data, hfq)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := m.Modelled(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m.ID = d.Model.Config
	return m, nil
}

// ConfigPath is model.config resolved against the spec file's directory.
func ConfigPath(d *spec.Deployment) string { return configPathFor(d, d.Model.Config) }

// configPathFor resolves a config.json path of the spec against the spec
// file's directory.
func configPathFor(d *spec.Deployment, p string) string {
	if filepath.IsAbs(p) || d.File == "" {
		return p
	}
	return filepath.Join(filepath.Dir(d.File), p)
}

// readConfig refuses anything but a small regular file, so that a path like
// /dev/zero or a FIFO cannot hang validation.
func readConfig(path string) ([]byte, error) {
	data, err := catalog.ReadHFConfigFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read model config: %w", err)
	}
	return data, nil
}

// modelSource names the model as the user did.
func modelSource(d *spec.Deployment, m *catalog.Model) string {
	if d.Model.Config != "" && d.Model.Name == "" {
		return d.Model.Config
	}
	return m.ID
}

// customIntraKind is the link assumed for custom GPU figures that do not
// say: NVLink, what the multi-GPU servers vlaunch plans for carry. A spec
// with PCIe GPUs says `intra_node.kind: pcie`.
const customIntraKind = "nvlink"

// GPU resolves hardware.gpu: a catalog entry, or the spec's own figures.
// The spec's hardware.network.intra_node.kind, when given, is the GPU's
// link kind (it describes the actual servers, which may differ from the
// catalog part's usual board).
func GPU(d *spec.Deployment) (*catalog.GPU, error) {
	g, err := gpuFigures(d.Hardware.GPU)
	if err != nil {
		return nil, err
	}
	if k := d.Hardware.Network.IntraNode.Kind; k != "" {
		g.IntraNodeKind = k
	}
	return g, nil
}

func gpuFigures(r spec.GPURef) (*catalog.GPU, error) {
	if r.Custom == nil {
		if r.Name == "" {
			return nil, fmt.Errorf("the spec names no GPU (hardware.gpu)")
		}
		return catalog.LookupGPU(r.Name)
	}
	c := r.Custom
	if c.MemoryMiB <= 0 {
		return nil, fmt.Errorf("custom GPU %q needs memory_mib (the CUDA-runtime total)", c.Name)
	}
	name := c.Name
	if name == "" {
		name = "custom GPU"
	}
	return &catalog.GPU{ID: "custom", Name: name, Vendor: c.Vendor, MemoryMiB: c.MemoryMiB, SMIMemoryMiB: c.MemoryMiB,
		HBMBandwidthGBytesPerS: c.HBMBandwidthGBytesPerS, BF16TFLOPS: c.BF16TFLOPS, FP8TFLOPS: c.FP8TFLOPS,
		IntraNodeGBytesPerS: c.IntraNodeGBytesPerS, IntraNodeKind: customIntraKind, ComputeMajor: catalog.GuessComputeMajor(name),
		Notes: "custom figures from the spec"}, nil
}
