package main

import (
	"github.com/spf13/pflag"
	"github.com/vlaunch/vlaunch/resolve"
)

// addCalibrationFlag registers --calibration, which check, plan and
// generate share.
func addCalibrationFlag(f *pflag.FlagSet, p *string) {
	f.StringVar(p, "calibration", "", "calibration file from 'vlaunch calibrate' (replaces the spec's calibration:; default: the spec's, else the global constants)")
}

// withCalibration returns r predicting with the calibration file at path
// (as the user named it; relative to the working directory), or r
// unchanged for an empty path. Set before the layout search, so that the
// search, the report and the bundle use the same constants.
func withCalibration(r *resolve.Deployment, path string) (*resolve.Deployment, error) {
	if path == "" {
		return r, nil
	}
	c, err := resolve.LoadCalibration(path, path)
	if err != nil {
		return nil, usageErr("--calibration: %v", err)
	}
	out := *r
	out.Calibration = c
	return &out, nil
}
