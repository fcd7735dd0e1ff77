package validate

import (
	"net"
	"regexp"
	"strings"
)

// Patterns for values that end up in file names, shell commands or
// Kubernetes objects. They are deliberately narrower than what the
// underlying system accepts: anything outside them would need quoting
// somewhere, and one unquoted use is enough to break a launch script.
var (
	// fileSafeRE: metadata.name and node names become file and directory names.
	fileSafeRE = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
	// ifnameRE: Linux interface names are at most 15 bytes (IFNAMSIZ-1) and
	// cannot contain '/', ':' or whitespace.
	ifnameRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,14}$`)
	// rdmaRE: an RDMA device, optionally with a port as NCCL_IB_HCA takes it.
	rdmaRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*(:[0-9]+)?$`)
	// hostLabelRE: one RFC 1123 host name label.
	hostLabelRE = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`)
	// envKeyRE: a POSIX shell variable name.
	envKeyRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// wordRE: served names, model paths, repo ids, images: no spaces,
	// quotes or shell metacharacters.
	wordRE = regexp.MustCompile(`^[A-Za-z0-9._/:@+=,-]+$`)
	// shmRE: a Docker/Kubernetes size such as 64g, 64Gi or 68719476736.
	shmRE = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?([bkmgtBKMGT]i?[bB]?)?$`)
	// dnsLabelRE / dnsSubdomainRE: Kubernetes object names (RFC 1123).
	dnsLabelRE     = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)
	dnsSubdomainRE = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

// fileSafe: the pattern, and not ".", ".." or a leading '-' (an option).
func fileSafe(s string) bool {
	return fileSafeRE.MatchString(s) && s != "." && s != ".." && !strings.HasPrefix(s, "-")
}

func ifnameOK(s string) bool { return ifnameRE.MatchString(s) && s != "." && s != ".." }

func wordOK(s string) bool { return wordRE.MatchString(s) && !strings.HasPrefix(s, "-") }

// hostOK accepts an IP address or an RFC 1123 host name.
func hostOK(s string) bool {
	if net.ParseIP(s) != nil {
		return true
	}
	if len(s) > 253 || s == "" {
		return false
	}
	for _, label := range strings.Split(strings.TrimSuffix(s, "."), ".") {
		if !hostLabelRE.MatchString(label) {
			return false
		}
	}
	return !allDigitsAndDots(s)
}

// allDigitsAndDots catches malformed IPv4 such as 192.168.1.300, which the
// label rule alone would accept as a host name.
func allDigitsAndDots(s string) bool {
	return strings.Trim(s, "0123456789.") == ""
}

// isLoopback reports addresses that only reach the local host.
func isLoopback(s string) bool {
	if ip := net.ParseIP(s); ip != nil {
		return ip.IsLoopback() || ip.IsUnspecified()
	}
	s = strings.ToLower(strings.TrimSuffix(s, "."))
	return s == "localhost" || strings.HasSuffix(s, ".localhost")
}

func hasLineBreakOrNUL(s string) bool { return strings.ContainsAny(s, "\x00\n\r") }
