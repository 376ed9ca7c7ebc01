package cluster

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
)

// DefaultPort is the pod port used when no container port is named PortName.
const DefaultPort = 8082

// PortName is the container port name that marks an instrumented pod.
const PortName = "backoff"

// Kinds of target, as kubectl spells them.
const (
	KindPod         = "pod"
	KindDeployment  = "deployment"
	KindStatefulSet = "statefulset"
	KindReplicaSet  = "replicaset"
)

// kindAliases maps what a user may type to a target kind.
var kindAliases = map[string]string{
	"po": KindPod, "pod": KindPod, "pods": KindPod,
	"deploy": KindDeployment, "deployment": KindDeployment, "deployments": KindDeployment,
	"sts": KindStatefulSet, "statefulset": KindStatefulSet, "statefulsets": KindStatefulSet,
	"rs": KindReplicaSet, "replicaset": KindReplicaSet, "replicasets": KindReplicaSet,
}

// Target says which controller pods to attach to. The zero Target means
// "discover instrumented pods".
type Target struct {
	// Kind and Name name a workload: pod/NAME, deploy/NAME, sts/NAME, rs/NAME.
	Kind, Name string
	// Selector selects pods by label, as -l does.
	Selector string
}

// IsZero reports whether the target names nothing, so pods must be discovered.
func (t Target) IsZero() bool { return t.Kind == "" && t.Selector == "" }

// String is the target as a user would type it.
func (t Target) String() string {
	switch {
	case t.Selector != "":
		return "-l " + t.Selector
	case t.Kind != "":
		return t.Kind + "/" + t.Name
	}
	return "(discovered)"
}

// ParseTarget parses a TARGET argument ("deploy/ctrl", "pod/ctrl-0", or a bare
// pod name, as kubectl port-forward takes it) and a -l selector. At most one
// of the two may be given.
func ParseTarget(arg, selector string) (Target, error) {
	if arg != "" && selector != "" {
		return Target{}, ErrTargetAndSelector
	}
	if selector != "" {
		if _, err := labels.Parse(selector); err != nil {
			return Target{}, &ParamError{Param: ParamSelector, Value: strconv.Quote(selector), Err: err}
		}
		return Target{Selector: selector}, nil
	}
	if arg == "" {
		return Target{}, nil
	}
	kind, name, ok := strings.Cut(arg, "/")
	if !ok {
		kind, name = KindPod, arg
	}
	k, known := kindAliases[strings.ToLower(kind)]
	if !known {
		return Target{}, fmt.Errorf("target %q: unknown kind %q; use pod/NAME, deploy/NAME, sts/NAME or rs/NAME", arg, kind)
	}
	if name == "" || strings.Contains(name, "/") {
		return Target{}, fmt.Errorf("target %q: want KIND/NAME, e.g. deploy/my-controller", arg)
	}
	return Target{Kind: k, Name: name}, nil
}

// PortSpec is the endpoint's port in a pod: a container port number or name. Empty means
// the port named "backoff", else DefaultPort.
type PortSpec string

// Validate checks the spec (a ParamError).
func (p PortSpec) Validate() error {
	if p == "" {
		return nil
	}
	if n, err := strconv.Atoi(string(p)); err == nil {
		if n < 1 || n > 65535 {
			return &ParamError{Param: ParamPort, Value: strconv.Itoa(n), Err: errors.New("out of range 1-65535")}
		}
		return nil
	}
	if len(p) > 15 {
		return &ParamError{Param: ParamPort, Value: strconv.Quote(string(p)), Err: errors.New("a port name has at most 15 characters")}
	}
	return nil
}
