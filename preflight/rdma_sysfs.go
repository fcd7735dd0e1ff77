package preflight

import (
	"io/fs"
	"path"
	"sort"
	"strings"
)

// ibRoot is where the kernel lists RDMA devices.
const ibRoot = "/sys/class/infiniband"

// mellanoxVendor is the PCI vendor id of Mellanox/NVIDIA NICs (mlx5).
const mellanoxVendor = "0x15b3"

// pciVendors names the RDMA NIC vendors a report is likely to meet.
var pciVendors = map[string]string{
	"0x15b3": "Mellanox/NVIDIA (mlx5)",
	"0x8086": "Intel (irdma)",
	"0x14e4": "Broadcom (bnxt_re)",
	"0x1d0f": "Amazon (EFA)",
	"0x1077": "QLogic/Marvell (qedr)",
	"0x19e5": "Huawei (hns)",
	"0x1dd8": "AMD Pensando (ionic)",
}

// rdmaPort is one port of one RDMA device.
type rdmaPort struct {
	Dev, Port string
}

func (p rdmaPort) dir() string { return path.Join(ibRoot, p.Dev, "ports", p.Port) }

// String names the port as "device/port" in reports.
func (p rdmaPort) String() string { return p.Dev + "/" + p.Port }

// rdmaPresent lists the devices under /sys/class/infiniband.
func (e *env) rdmaPresent() []string {
	ents, err := fs.ReadDir(e.host.FS, fsPath(ibRoot))
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range ents {
		out = append(out, d.Name())
	}
	sort.Strings(out)
	return out
}

// rdmaDevices is what the checks look at: the declared devices that exist,
// or every present device when none are declared.
func (e *env) rdmaDevices() []string {
	present := e.rdmaPresent()
	if len(e.node.RDMADevices) == 0 {
		return present
	}
	var out []string
	for _, d := range e.node.RDMADevices {
		if contains(present, d) {
			out = append(out, d)
		}
	}
	return out
}

// rdmaPorts lists the ports of the devices rdmaDevices returns.
func (e *env) rdmaPorts() []rdmaPort {
	var out []rdmaPort
	for _, d := range e.rdmaDevices() {
		ents, _ := fs.ReadDir(e.host.FS, fsPath(path.Join(ibRoot, d, "ports")))
		for _, p := range ents {
			out = append(out, rdmaPort{d, p.Name()})
		}
	}
	return out
}

// nicVendor returns the PCI vendor id and the kernel driver of a device;
// either may be empty when sysfs does not say.
func (e *env) nicVendor(dev string) (vendor, driver string) {
	vendor, _ = e.readTrim(path.Join(ibRoot, dev, "device/vendor"))
	if rl, ok := e.host.FS.(fs.ReadLinkFS); ok {
		if target, err := rl.ReadLink(fsPath(path.Join(ibRoot, dev, "device/driver"))); err == nil {
			driver = path.Base(target)
		}
	}
	return strings.ToLower(vendor), driver
}

// isMLX5 decides from the vendor id, or the driver when the id is missing.
func isMLX5(vendor, driver string) bool {
	if vendor != "" {
		return vendor == mellanoxVendor
	}
	return strings.HasPrefix(driver, "mlx5")
}

func vendorName(vendor, driver string) string {
	name := pciVendors[vendor]
	if name == "" {
		name = "vendor " + orUnknown(vendor)
	}
	if driver != "" {
		name += ", driver " + driver
	}
	return name
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
