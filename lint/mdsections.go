package lint

import (
	"fmt"
	"sort"

	"github.com/vlaunch/vlaunch/lint/launch"
)

// tagMarkdownSections splits a Markdown document's launches into the
// setups its sections show (QA41 D2): a recipe lays out alternatives as
// sections (one GPU count and another, NVIDIA and AMD, aggregated and
// disaggregated), and commands of different sections never run together,
// so they are no deployment to compare (VL202, VL205 and VL206 between a
// DP=2 and a DP=4 variant; VL214 between two sections' Ray heads). A
// launch in another section than the one before it starts another setup,
// tagged "md N" (the first keeps its tag, so it still groups with the
// other files' launches), unless it says it is a later node of a
// multi-node deployment (laterNode: --headless, a rank above 0; a `ray
// start --address` worker; or a section titled for a node after the
// first, MarkdownOutline.FollowerSection): a per-node recipe ("Node 0",
// "Node 1") puts the nodes of one deployment under headings of their own. A caption
// (`<u>Low latency:</u>`, `**Prefill node:**`; MarkdownOutline.CaptionAt)
// parts setups more weakly: a launch under another caption than the one
// before it starts another setup only if the setup so far already has a
// first node of its kind (a server, a Ray head; no later node), so that a
// caption between a Ray head and the `vllm serve` run on it ("You only
// need to run the vllm command on one node.") parts nothing, while captioned
// alternatives each starting their own engine are no one deployment
// (vllm-ascend's Qwen3-235B-A22B tutorial: 8 false VL201/VL202/VL205-VL207
// errors between its three `<u>`-captioned variants). Launches with
// a tag of their own (a YAML block's manifest object, a replica
// directive) are left as they are. The P/D engines of one deployment get
// different tags too, and need none: their roles keep them in groups of
// their own, and the P/D rules read all engines (VL224 asks which section
// holds them, otherMDSection).
func tagMarkdownSections(servers []*server, rays []*launch.Invocation, outlines map[string]*launch.MarkdownOutline) {
	type item struct {
		inv           *launch.Invocation
		later, server bool
	}
	byFile := map[string][]item{}
	for _, s := range servers {
		if outlines[s.Inv.File] != nil && s.Inv.Deployment == "" {
			byFile[s.Inv.File] = append(byFile[s.Inv.File], item{s.Inv, laterNode(s), true})
		}
	}
	for _, r := range rays {
		if outlines[r.File] != nil && r.Deployment == "" {
			byFile[r.File] = append(byFile[r.File], item{r, r.Kind == launch.KindRayWorker, false})
		}
	}
	for file, items := range byFile {
		o := outlines[file]
		sort.SliceStable(items, func(i, j int) bool { return items[i].inv.Pos.Line < items[j].inv.Pos.Line })
		first := items[0].inv.Pos.Line
		run, prev, prevCap := 0, o.SectionAt(first), o.CaptionAt(first)
		has := map[bool]bool{} // the run has a first node: a server (true), a Ray head (false)
		for _, it := range items {
			line := it.inv.Pos.Line
			sec, capt := o.SectionAt(line), o.CaptionAt(line)
			it.later = it.later || o.FollowerSection(line)
			if !it.later && (sec != prev || (capt != prevCap && has[it.server])) {
				run++
				clear(has)
			}
			prev, prevCap = sec, capt
			has[it.server] = has[it.server] || !it.later
			if run > 0 {
				it.inv.Deployment = fmt.Sprintf("md %d", run)
			}
		}
	}
}
