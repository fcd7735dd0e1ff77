package resolve

import (
	"fmt"

	"github.com/vlaunch/vlaunch/spec"
)

// Colocated is the colocated deployment a P/D deployment is compared with
// in `vlaunch check`: every node of the spec runs the decode pool's engine
// settings and its layout scaled to all the GPUs — its data-parallel size
// (or, for a layout without DP, its instances) times the ratio of all GPUs
// to the decode pool's. It is assembled from the decode pool's resolved
// parts, so model, GPU, release and calibration are the same. An error
// says why no such layout exists (the GPUs are not a whole multiple of the
// decode pool's, or the layout does not place).
func (d *Deployment) Colocated() (*Deployment, error) {
	if d == nil || d.PD == nil || d.Spec == nil || len(d.PD.Roles) != len(spec.Roles) {
		return nil, fmt.Errorf("not a disaggregated deployment")
	}
	dec := d.PD.Roles[len(d.PD.Roles)-1].Deployment
	view := d.Spec.RoleView(spec.RoleDecode)
	if dec == nil || view == nil {
		return nil, fmt.Errorf("no decode pool")
	}
	all := 0
	for _, n := range d.Spec.GPUNodes() {
		all += n.GPUs
	}
	pool := dec.Layout.TotalGPUs()
	if pool <= 0 || all%pool != 0 {
		return nil, fmt.Errorf("the %d GPUs are not a whole multiple of the decode pool's %d", all, pool)
	}
	k := all / pool
	view.Hardware.Nodes = d.Spec.GPUNodes() // not a P/D router's CPU-only host
	view.Metadata.Name = d.Spec.Metadata.Name + "-colocated"
	if view.Parallelism.Data > 1 && view.Parallelism.ReplicaCount() == 1 {
		view.Parallelism.Data *= k
	} else {
		view.Parallelism.Replicas = view.Parallelism.ReplicaCount() * k
	}
	out, err := Assemble(view, Parts{Model: dec.Model, GPU: dec.GPU, Release: dec.Release, Version: dec.Version,
		VersionNotes: dec.VersionNotes, Calibration: dec.Calibration, Draft: dec.draft})
	if err != nil {
		return nil, err
	}
	if _, err := Place(out.Layout, out.NodeGPUs(), out.Release); err != nil {
		return nil, fmt.Errorf("the colocated layout does not place: %v", err)
	}
	return out, nil
}
