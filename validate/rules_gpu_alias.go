package validate

import (
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
)

// noteGPUAlias: hardware.gpu names a family of catalog variants ("h100":
// SXM or PCIe), and vlaunch costs the one the alias picks; an info note
// says which, with the alternatives' figures (resolve.GPUAliasSetting;
// qa44b F12), so an owner of the other card does not read its verdicts
// as theirs.
func noteGPUAlias(c *checker) {
	g := c.d.Hardware.GPU
	if g.Custom != nil {
		return
	}
	s, ok := resolve.GPUAliasSetting(g.Name)
	if !ok {
		return
	}
	_, others, _ := catalog.GPUAliasChoice(g.Name)
	ids := append([]string{s.Value}, others...)
	c.add(diag.Info, CodeGPU, p("hardware", "gpu"), "write the card's id to say which: hardware.gpu: "+strings.Join(ids, " or "), "%s", s.Why)
}
