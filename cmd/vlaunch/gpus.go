package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/catalog"
)

func init() { subcommands = append(subcommands, newGPUsCmd) }

func newGPUsCmd(s *streams) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "gpus",
		Short: "List the embedded GPU catalog",
		Long: `List the GPUs 'hardware.gpu' accepts. Memory is the total the CUDA runtime
reports (what vLLM multiplies by gpu_memory_utilization); TFLOPS are dense
(FP4: NVFP4/MXFP4, listed for reference); the link figure is per GPU and
direction ("-": none, one GPU per system). NVLINK-DOMAIN is the largest
multi-node NVLink domain the part ships in (GB200/GB300 NVL72: 72 GPUs over
18 trays), what hardware.network.nvlink_domain may join; "-": NVLink ends at
the node. A spec may give its own figures.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			asJSON, err := listFormat(output)
			if err != nil {
				return err
			}
			gpus := catalog.GPUs()
			if asJSON {
				return writeJSON(s.out, gpus)
			}
			return writeTable(s.out, []string{"ID", "NAME", "MEMORY(MiB)", "MEMORY(GiB)", "HBM(TB/s)", "BF16(TFLOPS)", "FP8(TFLOPS)", "FP4(TFLOPS)", "LINK(GB/s)", "NVLINK-DOMAIN"}, gpuRows(gpus))
		},
	}
	addOutputFlag(cmd.Flags(), &output, listFormats, "")
	return cmd
}

func gpuRows(gs []*catalog.GPU) [][]string {
	rows := make([][]string, 0, len(gs))
	for _, g := range gs {
		rows = append(rows, []string{g.ID, g.Name, fmt.Sprintf("%.0f", g.MemoryMiB), fmt.Sprintf("%.1f", g.MemoryGiB()),
			num(g.HBMBandwidthGBytesPerS/1000, 3), num(g.BF16TFLOPS, 1), num(g.FP8TFLOPS, 1), num(g.FP4TFLOPS, 1),
			fmt.Sprintf("%s %s", num(g.IntraNodeGBytesPerS, 0), g.IntraNodeKind), domainGPUs(g)})
	}
	return rows
}

// domainGPUs is the GPU's multi-node NVLink domain in GPUs, "-" for none.
func domainGPUs(g *catalog.GPU) string {
	if g.NVLinkDomainGPUs == 0 {
		return "-"
	}
	return fmt.Sprint(g.NVLinkDomainGPUs)
}
