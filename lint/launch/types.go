package launch

// Pos is a 1-based line and column in an input file; the zero value means unknown.
type Pos struct {
	Line, Col int
	// File names the input the position is in when it is not the file of
	// the invocation that holds it: the environment a runner gives a script
	// it runs (ParseRunBy) is set in the runner. "" otherwise.
	File string
}

// Value is a piece of text the linter read from an input, with what could
// not be resolved statically.
type Value struct {
	// Text is the resolved text. Parts that could not be resolved appear as
	// their source form (e.g. "$HEAD_IP"), so equal expressions still compare equal.
	Text string
	// Known is true when every part of Text was resolved.
	Known bool
	// Pos is where the text starts in the input.
	Pos Pos
	// Unresolved names what could not be resolved: variable names, "$(...)".
	Unresolved []string
	// FromDefaults names the caller's variables whose ${X:-d} default the
	// text used (directly or through a variable): the caller may set X per
	// node, so the text is only what runs when it does not.
	FromDefaults []string
	// pos holds the input position of each byte of Text when known.
	pos []Pos
	// holes are the [start,end) byte ranges of Text that stand for what
	// could not be resolved, when partial says they are the only ones (a
	// value built from known and unknown parts); an unknown value that is
	// not partial is unknown throughout.
	holes   [][2]int
	partial bool
}

// PosAt returns the input position of byte i of Text, falling back to Pos.
func (v Value) PosAt(i int) Pos {
	if i >= 0 && i < len(v.pos) && v.pos[i].Line > 0 {
		return v.pos[i]
	}
	return v.Pos
}

// Slice returns the part of v from byte i to j with its positions.
func (v Value) Slice(i, j int) Value {
	out := Value{Text: v.Text[i:j], Known: v.Known, Unresolved: v.Unresolved, FromDefaults: v.FromDefaults, Pos: v.PosAt(i), partial: v.partial}
	if len(v.pos) >= j {
		out.pos = v.pos[i:j]
	}
	for _, h := range v.holes {
		if s, e := max(h[0], i), min(h[1], j); s < e {
			out.holes = append(out.holes, [2]int{s - i, e - i})
		}
	}
	return out
}

// knownIn reports whether bytes [i,j) of v were all resolved.
func (v Value) knownIn(i, j int) bool {
	if v.Known {
		return true
	}
	if !v.partial {
		return false
	}
	for _, h := range v.holes {
		if max(h[0], i) < min(h[1], j) {
			return false
		}
	}
	return true
}

// EnvVar is one environment variable in effect for an invocation.
type EnvVar struct {
	Name  string
	Value Value
	// Pos is where the variable was set (the name).
	Pos Pos
	// Source says how it was set: "export", "prefix", "env", "docker -e",
	// "manifest", "fieldRef" (SourceFieldRef: the downward API).
	Source string
}

// Kind says what an invocation starts.
type Kind int

// Invocation kinds.
const (
	// KindServe is a vLLM OpenAI-compatible server (vllm serve, api_server module, vllm image).
	KindServe Kind = iota + 1
	// KindRayHead is `ray start --head`.
	KindRayHead
	// KindRayWorker is `ray start --address=...`.
	KindRayWorker
	// KindScriptRun is not a launch: a script file the input runs (`bash
	// start.sh`, `./start.sh`, a container running a script mounted from the
	// host), with the context it runs in (environment, container, image,
	// GPUs, host). Args[0] is the script's path on the host as the runner
	// names it (a container path translated through its mounts). Package
	// lint joins it to the script when the script is among the inputs and
	// drops it before any rule runs.
	KindScriptRun
)

// Invocation is one command the linter recognised in an input.
type Invocation struct {
	Kind Kind
	// File is the input file as the user named it.
	File string
	// Node identifies the invocation among all inputs, e.g. "node1.sh" or
	// "run.sh#2" or "lws.yaml:worker[1]".
	Node string
	// Pos is where the command starts (the vllm / python / docker word).
	Pos Pos
	// Launcher is how vLLM is started: "vllm serve", "python -m ...", "docker image".
	Launcher string
	// Frontend names what parses the arguments when it is not vLLM's own
	// CLI: "dynamo.vllm" takes vLLM's engine arguments plus flags of its
	// own and runs no vLLM API server; "" for vllm serve and vLLM's modules.
	Frontend string
	// Args is the argv after the launcher (serve args; for ray, the ray args).
	Args []Value
	// Env is the environment in effect, in the order it was set; later wins.
	Env []EnvVar
	// Image is the container image, if any; ImageVersion the version from its tag.
	Image, ImageVersion string
	// Host names the remote host when the command runs through ssh ("" = this host).
	Host string
	// Role is "leader" or "worker" for LeaderWorkerSet pods, else "".
	Role string
	// GPUs is the number of GPUs the command can see, 0 when unknown.
	GPUs int
	// GPUSource says where GPUs came from ("CUDA_VISIBLE_DEVICES", "--gpus", "nvidia.com/gpu", "spec").
	GPUSource string
	// Platform is the accelerator platform the file shows signs of (an image,
	// a device file, a device-plugin resource, a platform's variables):
	// PlatformROCm, PlatformAscend, ...; "" when it shows none.
	Platform string
	// Background is true when the shell does not wait for the command (`&`).
	Background bool
	// Container holds container-level facts the container rules need.
	Container *Container
	// HostOnlyEnv lists variables the host script exports that the container never receives.
	HostOnlyEnv []EnvVar
	// UndefinedRefs are manifest variable references nothing defines.
	UndefinedRefs []Value
	// Unexported lists variables the script assigns without exporting them.
	Unexported []EnvVar
	// ParentOnlyRefs are the command's references to variables a parent
	// shell assigns without exporting: the child shell that runs the
	// command (`bash -c '...'`, `bash <<'EOF'`) sees them unset.
	ParentOnlyRefs []ParentOnlyRef
	// EnvOpen is true when more variables may be set than the linter sees
	// (a sourced file, --env-file, Kubernetes envFrom).
	EnvOpen bool

	// Deployment tags invocations from one manifest object so that two
	// objects in one file are linted as two deployments.
	Deployment string
	// OperatorArgs are the last args of Args when an operator appended
	// them to the command the file shows (Dynamo's multinode launch).
	OperatorArgs []Value
	// ConfigFile is the `--config` file of a server as the host names it
	// (a container path translated through its mounts); "" when there is
	// none or no host file can be it. Package lint splices the file's
	// arguments in when it is among the inputs (ConfigArgs, WithConfig).
	ConfigFile string
	// Arms are the branches of the script's if and case statements the
	// invocation sits in; two invocations of one file in different arms of
	// one statement never run together (Exclusive). Nil outside branches.
	Arms []Arm
	// Copies is how many identical copies of the invocation's group its
	// manifest object runs, each an engine of its own: a LeaderWorkerSet's,
	// Deployment's or ReplicaSet's spec.replicas (1 when absent, 0 when not
	// known or not a manifest).
	Copies int
}

// Arm is one branch of an if or case statement as the front end walked
// it: Clause numbers the walk of the statement (each walk of a function
// body or loop iteration gets its own), Index the branch.
type Arm struct{ Clause, Index int }

// Exclusive reports whether a and b are in different branches of one if
// or case statement of one file: one run of the script starts only one of
// them (a rank- or role-selected launch), so they are not two servers
// running side by side.
func Exclusive(a, b *Invocation) bool {
	if a.File != b.File {
		return false
	}
	for _, x := range a.Arms {
		for _, y := range b.Arms {
			if x.Clause == y.Clause && x.Index != y.Index {
				return true
			}
		}
	}
	return false
}

// Container describes how a docker run or a Kubernetes container starts vLLM.
type Container struct {
	// Runtime is "docker", "kubernetes" or "apptainer".
	Runtime string
	// HostNetwork, HostIPC and HasShm record the settings NCCL needs.
	HostNetwork, HostIPC, HasShm bool
	// SharesHostNICs is set when the file says the container uses the host's
	// network stack (docker --network host, Kubernetes hostNetwork: true):
	// it then sees every NIC of the host (docker0, veth, EFA, IB).
	SharesHostNICs bool
	// RepeatedEntrypoint points at a command that repeats the image's entrypoint.
	RepeatedEntrypoint *Value
	// ShellAfterImage points at a shell (`bash -lc '...'`) given after a
	// vLLM image without --entrypoint: the image's entrypoint receives it as
	// arguments and the script never runs. The script's own commands are
	// still read, as the configuration meant.
	ShellAfterImage *Value
	// Pos is where the container is declared (docker word or container name).
	Pos Pos
	// HostDevices are the host's GPUs a docker container gets when --gpus
	// names them ('"device=0,1"': indices or UUIDs), nil otherwise; two
	// containers on one host given the same GPU share it.
	HostDevices []string
	// AllGPUs: --gpus all, every GPU of the host, in the host's order (a
	// CUDA_VISIBLE_DEVICES inside then picks host GPUs by index).
	AllGPUs bool
	// Detached: docker run -d / --detach; the shell does not wait for it.
	Detached bool
}

// LookupEnv returns the last value set for name.
func (inv *Invocation) LookupEnv(name string) (EnvVar, bool) {
	for i := len(inv.Env) - 1; i >= 0; i-- {
		if inv.Env[i].Name == name {
			return inv.Env[i], true
		}
	}
	return EnvVar{}, false
}

// ParentOnlyRef is a reference, in a child shell's script, to a variable
// its parent shell assigned without exporting (Invocation.ParentOnlyRefs).
type ParentOnlyRef struct {
	// Name is the variable; Ref the argument that expands it.
	Name string
	Ref  Value
	// SetAt is where the parent assigned it.
	SetAt Pos
	// Array is true for a bash array, which no shell can export.
	Array bool
}
