package why

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// The rules that find a status manager's pods, in the order they are tried.
const (
	RuleGiven          = "given"                // the user named the pods
	RuleDeploymentName = "deployment-name"      // a Deployment named as the manager
	RuleContainerName  = "container-name"       // a Deployment with a container named as the manager
	RuleDeploymentPart = "deployment-prefix"    // a Deployment whose name begins the manager's (cert-manager → cert-manager-certificates-issuing)
	RuleInstrumented   = "instrumented-kind"    // an instrumented pod whose endpoint runs a controller of the object's kind
	RuleNoManager      = "no-status-manager"    // nothing wrote the status
	RuleAmbiguous      = "ambiguous"            // several candidates: the user names one
	RuleNotFound       = "not-found"            // no candidate
	maxProbes          = 10                     // instrumented workloads asked for their controllers
	deploymentsFor     = "to find the pods of " // what listing deployments is for
)

// Controller is the controller found to own an object's status, and how.
type Controller struct {
	// Manager is the status manager the search started from.
	Manager string `json:"manager,omitempty"`
	// Rule is which rule matched (Rule*); How says it in words.
	Rule string `json:"rule"`
	How  string `json:"how"`
	// Namespace and Target are where its pods are (deploy/NAME, pod/NAME,
	// or "-l SELECTOR" when Selector is set: the static pods of one
	// component, one per control-plane node).
	Namespace string `json:"namespace,omitempty"`
	Target    string `json:"target,omitempty"`
	Selector  string `json:"selector,omitempty"`
	// NotRunning is set when the pods were found and none runs: nothing
	// reconciles the object, which is the answer (their state is said).
	NotRunning string `json:"notRunning,omitempty"`
	// Instrumented is set when its pods have a port named "backoff".
	Instrumented bool `json:"instrumented"`
	// Name is the instrumented controller of the object's kind, when known.
	Name string `json:"name,omitempty"`
	// Candidates are what an ambiguous search found.
	Candidates []string `json:"candidates,omitempty"`
}

// Found reports whether the search named the pods.
func (c *Controller) Found() bool { return c != nil && c.Target != "" }

// InstrumentedText says how the controller's backoff is read: its
// endpoint, or its log.
func (c *Controller) InstrumentedText() string {
	if c.Instrumented {
		return "instrumented"
	}
	return "not instrumented: its log is read"
}

// Given is the user's own answer (the pods they named): pods of Target in Namespace.
type Given struct {
	Target    cluster.Target
	Namespace string
}

// Probe reads the controllers an instrumented pod runs (v1/controllers
// through a port-forward).
type Probe func(ctx context.Context, p cluster.Pod) ([]api.Controller, error)

// Finder finds the pods of the controller that owns an object's status.
type Finder struct {
	Core cluster.Clientset
	// Probe asks instrumented pods what they run; nil skips that rule.
	Probe Probe
	// Logs reads candidates' logs when a search is ambiguous; nil skips
	// that rule.
	Logs LogReader

	// found remembers each search, by kind and manager: `why TYPE` asks
	// about many objects of one controller.
	found map[string]found
}

type found struct {
	c       *Controller
	refused []error
	checked time.Time // when checkRunning last read its pods
}

// recheckRunning is how long a found controller's pods, read running, are
// not read again: `why configmaps` over 40 objects of one controller read
// its pod 40 times, 5 a second under client-go's default rate limit.
const recheckRunning = 5 * time.Second

// Find looks for the controller of an object of kind gk whose status
// managers are managers (newest first). A read the user may not make is
// returned in refused, and the search goes on without it.
func (f *Finder) Find(ctx context.Context, gk schema.GroupKind, managers []Change, given *Given) (c *Controller, refused []error) {
	check := true
	defer func() {
		if check {
			f.checkRunning(ctx, c)
		}
	}()
	if given != nil {
		return f.given(ctx, *given), nil
	}
	if len(managers) == 0 && gk == (schema.GroupKind{Kind: "Pod"}) {
		return &Controller{Rule: RuleNodeAgent, How: "a Pod's status is written by a scheduler (its PodScheduled condition, as it places it on a node) and then by its node's kubelet, not by a controller with a work queue: neither has written this one's"}, nil
	}
	manager := ""
	if len(managers) > 0 {
		manager = managers[0].Manager
	}
	if gk == (schema.GroupKind{Kind: "Pod"}) {
		return nodeAgent(manager), nil
	}
	id := gk.String() + "/" + manager
	if fd, ok := f.found[id]; ok {
		if check = time.Since(fd.checked) >= recheckRunning; check {
			fd.checked = time.Now()
			f.found[id] = fd
		}
		return fd.c, fd.refused
	}
	defer func() {
		if f.found == nil {
			f.found = map[string]found{}
		}
		f.found[id] = found{c, refused, time.Now()}
	}()
	if len(managers) == 0 {
		return f.noManager(ctx, gk)
	}
	deps, err := f.Core.AppsV1().Deployments(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		refused = append(refused, Refused(err, "list", "deployments", "", deploymentsFor+"the status manager "+manager))
	} else if c := byName(manager, deps.Items); c != nil {
		f.markInstrumented(ctx, c)
		if c.Rule != RuleAmbiguous {
			return c, refused
		}
		// Several deployments match the name: the kind may tell them apart.
		if k, refusedKind := f.byKind(ctx, gk, manager); k.Found() {
			return k, append(refused, refusedKind...)
		}
		if k := f.byLog(ctx, gk, c); k != nil {
			f.markInstrumented(ctx, k)
			return k, refused
		}
		return c, refused
	}
	pods, err := listAllPods(ctx, f.Core)
	if err != nil {
		refused = append(refused, Refused(err, "list", "pods", "", deploymentsFor+"the status manager "+manager))
	} else if c := byPodContainer(manager, pods); c != nil {
		if c.Rule != RuleAmbiguous {
			f.markInstrumented(ctx, c)
			return c, refused
		}
		// Pods of several namespaces match (kubebuilder's "manager"): the
		// kind may tell them apart.
		if k, refusedKind := f.byKind(ctx, gk, manager); k.Found() {
			return k, append(refused, refusedKind...)
		}
		if k := f.byLog(ctx, gk, c); k != nil {
			f.markInstrumented(ctx, k)
			return k, refused
		}
		return c, refused
	}
	if controlPlane[manager] && err == nil {
		return controlPlaneHidden(manager), refused
	}
	c, more := f.byKind(ctx, gk, manager)
	refused = append(refused, more...)
	if c.Rule == RuleNotFound && len(refused) > 0 {
		c.How = fmt.Sprintf("the pods of the status manager %q could not be searched for: %s refused (marked !); name them with "+givePods("deploy/NAME"),
			manager, text.Plural(len(refused), "read"))
	}
	return c, refused
}

// noManager is the search for an object whose status nobody wrote: a
// kind with no status (a ConfigMap, a Secret) or a controller that writes
// none is still reconciled, and an instrumented pod that runs a controller
// of its kind is that controller; else no status manager was found.
func (f *Finder) noManager(ctx context.Context, gk schema.GroupKind) (*Controller, []error) {
	c, refused := f.byKind(ctx, gk, "")
	switch {
	case c.Found():
		c.How = "managedFields name no status manager, but " + c.How
		return c, refused
	case c.Rule == RuleAmbiguous:
		return c, refused
	}
	return &Controller{Rule: RuleNoManager, How: "no status manager was found: managedFields show no write to status, so no controller has reconciled this object (or its controller writes no status)"}, refused
}

func (f *Finder) given(ctx context.Context, g Given) *Controller {
	c := &Controller{Rule: RuleGiven, Namespace: g.Namespace, Target: g.Target.String(),
		How: fmt.Sprintf("given with %s: %s in namespace %s", podsFlag, g.Target, g.Namespace)}
	f.markInstrumented(ctx, c)
	return c
}

// byName applies the three name rules; nil when none matches.
func byName(manager string, deps []appsv1.Deployment) *Controller {
	type match struct{ rule, how string }
	var found []appsv1.Deployment
	var m match
	for _, r := range []struct {
		rule string
		test func(d appsv1.Deployment) bool
		how  string
	}{
		{RuleDeploymentName, func(d appsv1.Deployment) bool { return d.Name == manager }, "the Deployment is named as the status manager %q"},
		{RuleContainerName, func(d appsv1.Deployment) bool {
			return slices.ContainsFunc(d.Spec.Template.Spec.Containers, func(c corev1.Container) bool { return c.Name == manager })
		}, "the Deployment has a container named as the status manager %q"},
		{RuleDeploymentPart, func(d appsv1.Deployment) bool { return strings.HasPrefix(manager, d.Name+"-") },
			"the Deployment's name begins the status manager's %q"},
	} {
		for _, d := range deps {
			if r.test(d) {
				found = append(found, d)
			}
		}
		if len(found) > 0 {
			m = match{r.rule, fmt.Sprintf(r.how, manager)}
			break
		}
	}
	switch len(found) {
	case 0:
		return nil
	case 1:
		d := found[0]
		return &Controller{Manager: manager, Rule: m.rule, How: m.how, Namespace: d.Namespace, Target: "deploy/" + d.Name}
	}
	if m.rule == RuleDeploymentPart {
		// The longest name is the most specific: cert-manager-webhook is not
		// cert-manager's controller when the manager is cert-manager-certificates-issuing.
		slices.SortFunc(found, func(a, b appsv1.Deployment) int { return len(b.Name) - len(a.Name) })
		if len(found[0].Name) > len(found[1].Name) {
			d := found[0]
			return &Controller{Manager: manager, Rule: m.rule, How: m.how, Namespace: d.Namespace, Target: "deploy/" + d.Name}
		}
	}
	c := &Controller{Manager: manager, Rule: RuleAmbiguous}
	for _, d := range found {
		c.Candidates = append(c.Candidates, d.Namespace+"/deploy/"+d.Name)
	}
	c.How = fmt.Sprintf("%d Deployments match the status manager %q (%s): name one with "+givePods("deploy/NAME"),
		len(found), manager, strings.Join(c.Candidates, ", "))
	return c
}

// byKind finds, among the instrumented pods of the cluster, the workload
// whose endpoint runs a controller of kind gk.
func (f *Finder) byKind(ctx context.Context, gk schema.GroupKind, manager string) (*Controller, []error) {
	notFound := &Controller{Manager: manager, Rule: RuleNotFound,
		How: fmt.Sprintf("no Deployment or container is named like the status manager %q, and no instrumented pod runs a controller of kind %s: name its pods with %s", manager, gk, givePods("deploy/NAME"))}
	if f.Probe == nil {
		return notFound, nil
	}
	pods, err := cluster.Resolve(ctx, f.Core, cluster.Target{}, metav1.NamespaceAll, true, "")
	if err != nil {
		if r := Refused(err, "list", "pods", "", "to find instrumented pods that reconcile "+gk.String()); r != err {
			return notFound, []error{r}
		}
		return notFound, nil // none instrumented
	}
	var matches []*Controller
	seen := map[string]bool{}
	for _, p := range pods {
		if seen[p.Workload] || len(seen) >= maxProbes {
			continue
		}
		seen[p.Workload] = true
		cs, err := f.Probe(ctx, p)
		if err != nil {
			continue
		}
		// One workload is one match, however many controllers of the
		// kind it runs (the demo runs six over ConfigMaps): the key's
		// reader asks each of them for the key (Name left empty).
		if names := controllersOfKind(cs, gk, ""); len(names) > 0 {
			m := &Controller{Manager: manager, Rule: RuleInstrumented, Namespace: p.Namespace, Target: targetOf(p), Instrumented: true,
				How: fmt.Sprintf("the instrumented pod %s runs controller %q of kind %s", p, names[0], gk)}
			if m.Name = names[0]; len(names) > 1 {
				m.Name, m.How = "", fmt.Sprintf("the instrumented pod %s runs %d controllers of kind %s (%s)", p, len(names), gk, strings.Join(names, ", "))
			}
			matches = append(matches, m)
		}
	}
	switch len(matches) {
	case 0:
		return notFound, nil
	case 1:
		return matches[0], nil
	}
	c := &Controller{Manager: manager, Rule: RuleAmbiguous}
	for _, m := range matches {
		c.Candidates = append(c.Candidates, m.Namespace+"/"+m.Target)
	}
	c.How = fmt.Sprintf("%d instrumented workloads run a controller of kind %s (%s): name one with %s and %s", len(matches), gk, strings.Join(c.Candidates, ", "), podsFlag, namespaceFlag)
	return c, nil
}

// markInstrumented looks at the found pods for the port named "backoff".
func (f *Finder) markInstrumented(ctx context.Context, c *Controller) {
	if !c.Found() {
		return
	}
	t, err := c.target()
	if err != nil {
		return
	}
	pods, err := cluster.Resolve(ctx, f.Core, t, c.Namespace, false, "")
	if err != nil {
		return
	}
	c.Instrumented = slices.ContainsFunc(pods, func(p cluster.Pod) bool { return !p.PortGuessed })
}

// targetOf names a pod's workload as a TARGET: deploy/NAME, sts/NAME, or pod/NAME.
func targetOf(p cluster.Pod) string {
	parts := strings.SplitN(p.Workload, "/", 3)
	if len(parts) == 3 && (parts[1] == "deploy" || parts[1] == "sts" || parts[1] == "rs") {
		return parts[1] + "/" + parts[2]
	}
	return "pod/" + p.Name
}
