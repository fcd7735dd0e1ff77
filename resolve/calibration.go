package resolve

import (
	"path/filepath"

	"github.com/vlaunch/vlaunch/calfile"
	"github.com/vlaunch/vlaunch/spec"
)

// Calibration is where the performance model's efficiency constants come
// from: a calibration file (`vlaunch calibrate`), or the global constants
// when File is nil. It is resolved once, here, so that check, plan and
// generate predict with the same constants.
type Calibration struct {
	File *calfile.File
	// Source is the file as the user named it (the spec's calibration:
	// or --calibration).
	Source string
}

// Describe names the constants for reports: "the global constants (…)" or
// "calibration FILE (fitted DATE to N benchmark results)".
func (c Calibration) Describe() string {
	if c.File == nil {
		return "the global constants (docs/calibration-throughput.md)"
	}
	return "calibration " + c.Source + " (" + c.File.Summary() + ")"
}

// CalibrationPath is the spec's calibration file resolved against the
// spec file's directory ("" when the spec names none).
func CalibrationPath(d *spec.Deployment) string {
	if d.Calibration == "" || filepath.IsAbs(d.Calibration) || d.File == "" {
		return d.Calibration
	}
	return filepath.Join(filepath.Dir(d.File), d.Calibration)
}

// LoadCalibration reads the calibration file at path; source is how the
// user named it.
func LoadCalibration(path, source string) (Calibration, error) {
	f, err := calfile.Load(path)
	if err != nil {
		return Calibration{}, err
	}
	return Calibration{File: f, Source: source}, nil
}

// specCalibration resolves the spec's calibration: field.
func specCalibration(d *spec.Deployment) (Calibration, error) {
	if d.Calibration == "" {
		return Calibration{}, nil
	}
	c, err := LoadCalibration(CalibrationPath(d), d.Calibration)
	if err != nil {
		return c, fieldErr("calibration", err.Error(), "the path is relative to the spec file; write the file with `vlaunch calibrate`")
	}
	return c, nil
}
