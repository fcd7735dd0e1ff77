package bench

import (
	"fmt"

	"github.com/vlaunch/vlaunch/internal/inputfile"
)

// ReadFile reads every result of the file at path (a regular file of at
// most MaxBytes); results are named by the path as given.
func ReadFile(path string) ([]Result, error) {
	data, err := inputfile.Read(path, MaxBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return Parse(path, data)
}
