package validate

import "github.com/vlaunch/vlaunch/resolve"

// checkCalibration reads the spec's calibration file once (package
// resolve), so that every command predicts with the constants it holds,
// and reports a file that cannot be used at the calibration key.
func checkCalibration(c *checker) {
	if c.d.Calibration == "" || !c.ok(p("calibration")) {
		return
	}
	cal, err := resolve.LoadCalibration(resolve.CalibrationPath(c.d), c.d.Calibration)
	if err != nil {
		c.errorf(CodeCalibration, p("calibration"), "the path is relative to the spec file; write the file with `vlaunch calibrate`", "%v", err)
		return
	}
	c.cal = cal
}
