package validate

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/spec"
)

// maxConfigBytes bounds a model config.json; real ones are a few KiB.
const maxConfigBytes = 4 << 20

// Model resolves the deployment's model: the catalog entry model.name names,
// or the config.json at model.config (relative to the spec file's directory).
func Model(d *spec.Deployment) (*catalog.Model, error) {
	if d.Model.Name != "" {
		return catalog.LookupModel(d.Model.Name)
	}
	if d.Model.Config == "" {
		return nil, fmt.Errorf("the spec names no model")
	}
	path := ConfigPath(d)
	data, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	m, err := catalog.ParseHFConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m.ID = d.Model.Config
	return m, nil
}

// ConfigPath is model.config resolved against the spec file's directory.
func ConfigPath(d *spec.Deployment) string {
	if filepath.IsAbs(d.Model.Config) || d.File == "" {
		return d.Model.Config
	}
	return filepath.Join(filepath.Dir(d.File), d.Model.Config)
}

// readConfig refuses anything but a small regular file, so that a path like
// /dev/zero cannot hang validation.
func readConfig(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read model config: %w", err)
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxConfigBytes {
		return nil, fmt.Errorf("model config %s is not a regular file under %d MiB", path, maxConfigBytes>>20)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read model config: %w", err)
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxConfigBytes))
}

// GPU resolves hardware.gpu: a catalog entry, or the spec's own figures.
func GPU(d *spec.Deployment) (*catalog.GPU, error) {
	g := d.Hardware.GPU
	if g.Custom == nil {
		return catalog.LookupGPU(g.Name)
	}
	f := g.Custom
	return &catalog.GPU{ID: f.Name, Name: f.Name, Vendor: f.Vendor, MemoryMiB: f.MemoryMiB, SMIMemoryMiB: f.MemoryMiB,
		HBMBandwidthGBytesPerS: f.HBMBandwidthGBytesPerS, BF16TFLOPS: f.BF16TFLOPS, FP8TFLOPS: f.FP8TFLOPS,
		IntraNodeGBytesPerS: f.IntraNodeGBytesPerS, IntraNodeKind: d.Hardware.Network.IntraNode.Kind,
		Notes: "custom figures from the spec"}, nil
}
