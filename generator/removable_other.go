//go:build !unix

package generator

// removable cannot check permissions portably here; Write still reports a
// failed deletion as a LeftoverError.
func removable(string) error { return nil }
