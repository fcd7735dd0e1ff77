package generator

import "fmt"

// portRange words a run of consecutive ports for the bundle README's
// side-channel table: "5600–5607", or one port alone ("5600", not
// "5600–5600", QA #37) when the run is one port.
func portRange(ports []int) string {
	switch {
	case len(ports) == 0:
		return ""
	case ports[0] == ports[len(ports)-1]:
		return fmt.Sprint(ports[0])
	}
	return fmt.Sprintf("%d–%d", ports[0], ports[len(ports)-1])
}
