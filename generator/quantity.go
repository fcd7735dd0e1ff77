package generator

import (
	"regexp"
	"strings"
)

var dockerSizeRE = regexp.MustCompile(`^(\d+)([kKmMgGtT])[bB]?$`)

// k8sQuantity turns Docker's binary size shorthand ("64g", "512m") into a
// Kubernetes quantity ("64Gi", "512Mi"); anything else passes unchanged.
func k8sQuantity(s string) string {
	m := dockerSizeRE.FindStringSubmatch(s)
	if m == nil {
		return s
	}
	return m[1] + strings.ToUpper(m[2]) + "i"
}
