package main

import (
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/resolve"
)

// checkPD is `vlaunch check` of a disaggregated deployment. --calibration
// (applied to the deployment by withCalibration) reaches each pool as a
// spec's calibration file does: both pools read its constants.
func checkPD(r *resolve.Deployment, opt estimate.PerfOptions) estimate.Report {
	pd := *r.PD
	pd.Roles = append([]resolve.Role(nil), r.PD.Roles...)
	for i := range pd.Roles {
		d := *pd.Roles[i].Deployment
		d.Calibration = r.Calibration
		pd.Roles[i].Deployment = &d
	}
	out := *r
	out.PD = &pd
	return estimate.CheckPD(&out, opt)
}
