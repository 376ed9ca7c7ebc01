package objstatus

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

// The statuses of an object, as kstatus names them.
const (
	Current     = string(status.CurrentStatus)
	InProgress  = string(status.InProgressStatus)
	Failed      = string(status.FailedStatus)
	Terminating = string(status.TerminatingStatus)
	// Unknown is kstatus's word for a status it cannot tell; here, an
	// object with no status whose controller's log went quiet on its key
	// (KeyWord.Quiet).
	Unknown = string(status.UnknownStatus)
)

// Verdict is what the object itself says about its latest change: kstatus's
// word and message, and the evidence that decides it.
type Verdict struct {
	// Status is Current, InProgress, Failed or Terminating: kstatus's word,
	// unless a rule kstatus does not read overrides it (Override says which).
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
	// KStatus is kstatus's own word, kept when Override changed Status.
	KStatus  string `json:"kstatus"`
	Override string `json:"override,omitempty"`
	// Generation and ObservedGeneration (status.observedGeneration, absent
	// when the kind has none).
	Generation         int64  `json:"generation,omitempty"`
	ObservedGeneration *int64 `json:"observedGeneration,omitempty"`
	// NeverReconciled is Flux's status.observedGeneration -1: the controller
	// has not reconciled the object once.
	NeverReconciled bool `json:"neverReconciled,omitempty"`
	// NoStatus is set when the object has no status at all; NotReconciled
	// when, besides, its kind always gets one from a controller (Kind): no
	// controller has written its status yet. KindNoStatus is set when the
	// kind has no status at all (a ConfigMap): nothing reconciles it.
	NoStatus      bool `json:"noStatus,omitempty"`
	NotReconciled bool `json:"notReconciled,omitempty"`
	KindNoStatus  bool `json:"kindNoStatus,omitempty"`
	// Conditions are the object's conditions, each with its own
	// observedGeneration where the kind sets one.
	Conditions []Condition `json:"conditions,omitempty"`
	// Failures are the object's own evidence that its controller's attempts
	// fail (failure-type conditions, recurring Warning events), newest
	// event series first; what the blocker object is read from.
	Failures []Failure `json:"failures,omitempty"`
	// Evidence says, one sentence each, what decided Status.
	Evidence []string `json:"evidence"`
	// Recurring is the sentence of the failure events that keep recurring
	// since the last change (JudgeEvents), whether or not they overrode
	// kstatus: what a reader names as the object's own word on its trouble.
	// Not on the wire: Evidence says it there.
	Recurring string `json:"-"`
}

// Condition is one entry of status.conditions.
type Condition struct {
	Type               string    `json:"type"`
	Status             string    `json:"status"`
	Reason             string    `json:"reason,omitempty"`
	Message            string    `json:"message,omitempty"`
	ObservedGeneration int64     `json:"observedGeneration,omitempty"`
	LastTransitionTime time.Time `json:"lastTransitionTime,omitzero"`
	// Stale is set when the condition was observed at an older generation
	// than the object's.
	Stale bool `json:"stale,omitempty"`
}

// Judge computes the object's verdict: kstatus.Compute first, then what
// kstatus does not read (a condition's own observedGeneration, Flux's
// observedGeneration -1, kinds whose Ready is absent). What the kind promises
// about status is the built-ins' rules (KindOf); JudgeKind takes it read
// from discovery, which custom kinds need.
func Judge(u *unstructured.Unstructured) Verdict {
	return JudgeKind(u, KindOf(u.GroupVersionKind().GroupKind()))
}

// JudgeKind is Judge with what the kind promises about status: an object
// with no status whose kind always gets one is not reconciled yet, never
// Current (kstatus calls an object without conditions Current).
func JudgeKind(u *unstructured.Unstructured, k Kind) Verdict {
	v := Verdict{Generation: u.GetGeneration(), Conditions: conditionsOf(u), NoStatus: hasNoStatus(u)}
	v.KindNoStatus = v.NoStatus && k.NoStatus
	if og, ok, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration"); ok {
		v.ObservedGeneration = &og
	}
	res, err := status.Compute(u)
	if err != nil {
		v.Status, v.KStatus = InProgress, string(status.UnknownStatus)
		v.Evidence = append(v.Evidence, fmt.Sprintf("kstatus could not read the status: %v", err))
		return v
	}
	v.Status, v.KStatus, v.Message = string(res.Status), string(res.Status), res.Message
	v.Evidence = append(v.Evidence, fmt.Sprintf("kstatus: %s (%s)", res.Status, res.Message))
	for i := range v.Conditions {
		c := &v.Conditions[i]
		c.Stale = c.ObservedGeneration > 0 && v.Generation > 0 && c.ObservedGeneration < v.Generation
	}
	if v.Status == Terminating {
		return v
	}
	if v.NoStatus && k.WritesStatus {
		v.NotReconciled = true
		v.override(InProgress, "not-reconciled", "the object has no status, and its kind's status is written by its controller: no controller has written its status yet")
		return v
	}
	collectFailures(&v)
	for _, rule := range rules {
		if rule(u, &v) {
			break
		}
	}
	return v
}

// A rule reads what kstatus does not; it returns true when it decided.
type rule func(u *unstructured.Unstructured, v *Verdict) bool

// rules run in order after kstatus, the first that decides wins.
var rules = []rule{neverReconciled, crossplaneSynced, staleReady, rollingOut, argoApplication, apiServiceAvailable, acmeState, failureConditions, persistentVolumePhase}

// neverReconciled: Flux defaults status.observedGeneration to -1 in its
// CRDs, so -1 means its controller has not reconciled the object once
// (kstatus says only "generation 1, observed -1").
func neverReconciled(_ *unstructured.Unstructured, v *Verdict) bool {
	if v.ObservedGeneration == nil || *v.ObservedGeneration != -1 {
		return false
	}
	v.NeverReconciled = true
	v.override(InProgress, "never-reconciled", "status.observedGeneration is -1, the CRD's default: the controller has never reconciled this object")
	return true
}

// crossplaneSynced: a Crossplane resource says in Synced whether its spec
// reached the external resource (crossplane-runtime apis/common/v1
// condition.go: ReconcileError, ReconcilePaused), and Ready only whether the
// external resource can be used. kstatus reads Ready alone, so an edit the
// provider fails to apply — Ready=True, Synced=False — reads Current: the
// very case `why` is for. The managed reconciler sets no observedGeneration
// (v1.17.0), so Synced=False is the one signal.
func crossplaneSynced(_ *unstructured.Unstructured, v *Verdict) bool {
	i := slices.IndexFunc(v.Conditions, func(c Condition) bool { return c.Type == "Synced" && c.Status == "False" })
	if i < 0 {
		return false
	}
	c := v.Conditions[i]
	ready := ""
	if slices.ContainsFunc(v.Conditions, func(c Condition) bool { return c.Type == "Ready" && c.Status == "True" }) {
		ready = " (Ready=True says only that the external resource exists)"
	}
	switch c.Reason {
	case "ReconcileError":
		v.override(Failed, "crossplane-synced", fmt.Sprintf("Synced=False (ReconcileError): the provider could not apply the spec%s: %s; it retries with its backoff",
			ready, oneLine(c.Message)))
	case "ReconcilePaused":
		v.override(InProgress, "crossplane-paused", "Synced=False (ReconcilePaused): reconciling is paused by the crossplane.io/paused annotation: no change is applied until it is removed")
	default:
		return false
	}
	return true
}

// staleReady: kstatus takes Ready=True as Current whatever generation it
// was observed at; cert-manager, Flux, Cluster API v1beta2 and Karpenter v1
// record that generation on the condition itself.
func staleReady(_ *unstructured.Unstructured, v *Verdict) bool {
	i := slices.IndexFunc(v.Conditions, func(c Condition) bool { return c.Type == "Ready" })
	if i < 0 || !v.Conditions[i].Stale {
		return false
	}
	c := v.Conditions[i]
	if v.Status == Current {
		v.override(InProgress, "stale-ready", fmt.Sprintf("Ready=%s was observed at generation %d; the object is at generation %d: it says nothing yet about the latest change",
			c.Status, c.ObservedGeneration, v.Generation))
		return true
	}
	v.Evidence = append(v.Evidence, fmt.Sprintf("Ready=%s was observed at generation %d, before the latest change (generation %d)", c.Status, c.ObservedGeneration, v.Generation))
	return false
}

// capiProgress are Cluster API v1beta2's conditions that say work is under
// way on kinds without Ready (MachineDeployment, MachineSet,
// KubeadmControlPlane): kstatus calls those Current whatever they say.
var capiProgress = []string{"RollingOut", "ScalingUp", "ScalingDown"}

func rollingOut(u *unstructured.Unstructured, v *Verdict) bool {
	group := u.GroupVersionKind().Group
	if v.Status != Current || !strings.HasSuffix(group, "cluster.x-k8s.io") {
		return false
	}
	if slices.ContainsFunc(v.Conditions, func(c Condition) bool { return c.Type == "Ready" }) {
		return false
	}
	for _, c := range v.Conditions {
		if slices.Contains(capiProgress, c.Type) && c.Status == "True" {
			v.override(InProgress, "capi-"+strings.ToLower(c.Type), fmt.Sprintf("%s=True (%s): %s", c.Type, c.Reason, oneLine(c.Message)))
			return true
		}
	}
	return false
}

// argoApplication: an Argo CD Application reports no conditions kstatus
// reads (only errors), but status.sync.status and status.health.status.
func argoApplication(u *unstructured.Unstructured, v *Verdict) bool {
	gvk := u.GroupVersionKind()
	if gvk.Group != "argoproj.io" || gvk.Kind != "Application" {
		return false
	}
	str := func(path ...string) string { s, _, _ := unstructured.NestedString(u.Object, path...); return s }
	sync, health := str("status", "sync", "status"), str("status", "health", "status")
	phase, opMsg := str("status", "operationState", "phase"), str("status", "operationState", "message")
	what := fmt.Sprintf("sync %s at revision %s, health %s", orUnknown(sync), orUnknown(str("status", "sync", "revision")), orUnknown(health))
	if m := str("status", "health", "message"); m != "" {
		what += ": " + oneLine(m)
	}
	switch {
	case phase == "Failed" || phase == "Error":
		v.override(Failed, "argocd-operation", fmt.Sprintf("the last sync operation is %s: %s (%s)", phase, oneLine(opMsg), what))
	case health == "Degraded" || health == "Missing":
		v.override(Failed, "argocd-health", what)
	case sync == "Synced" && health == "Healthy":
		v.override(Current, "argocd-synced", what)
	default:
		v.override(InProgress, "argocd-sync", what)
	}
	return true
}

// apiServiceAvailable: an APIService says in Available whether the API
// server can reach what serves it; kstatus reads only Ready, so an
// unavailable one — which blocks every namespace's deletion through
// discovery — reads Current.
func apiServiceAvailable(u *unstructured.Unstructured, v *Verdict) bool {
	gvk := u.GroupVersionKind()
	if gvk.Group != "apiregistration.k8s.io" || gvk.Kind != "APIService" {
		return false
	}
	i := slices.IndexFunc(v.Conditions, func(c Condition) bool { return c.Type == "Available" })
	if i < 0 || v.Conditions[i].Status == "True" {
		return false
	}
	c := v.Conditions[i]
	v.override(Failed, "apiservice-unavailable", fmt.Sprintf("Available=%s (%s): %s: the API server cannot reach what serves %s, so discovery of its group fails (and namespaces cannot be deleted)",
		c.Status, c.Reason, oneLine(c.Message), u.GetName()))
	return true
}

// acmeState: cert-manager's ACME Order and Challenge have no conditions,
// only status.state (the ACME states: pending, ready, processing, valid,
// invalid, errored, expired) and status.reason; kstatus calls them Current
// whatever they say.
func acmeState(u *unstructured.Unstructured, v *Verdict) bool {
	if u.GroupVersionKind().Group != "acme.cert-manager.io" {
		return false
	}
	state, _, _ := unstructured.NestedString(u.Object, "status", "state")
	reason, _, _ := unstructured.NestedString(u.Object, "status", "reason")
	what := "state " + orUnknown(state)
	if reason != "" {
		what += ": " + oneLine(reason)
	}
	switch state {
	case "valid":
		v.override(Current, "acme-state", what)
	case "invalid", "errored", "expired":
		v.override(Failed, "acme-state", what)
	default:
		v.override(InProgress, "acme-state", what)
	}
	return true
}

// OverrideBy records a rule read outside the object (its controller's own
// word on the key) deciding Status, keeping kstatus's word: one verdict,
// saying what overrode kstatus.
func (v *Verdict) OverrideBy(st, rule, why string) { v.override(st, rule, why) }

// override sets the status a rule decided, keeping kstatus's word.
func (v *Verdict) override(st, rule, why string) {
	v.Status, v.Override, v.Message = st, rule, why
	v.Evidence = append(v.Evidence, why)
}

func conditionsOf(u *unstructured.Unstructured) []Condition {
	raw, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	var out []Condition
	for _, r := range raw {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		str := func(k string) string { s, _ := m[k].(string); return s }
		c := Condition{Type: str("type"), Status: str("status"), Reason: str("reason"), Message: str("message")}
		c.LastTransitionTime, _ = time.Parse(time.RFC3339, str("lastTransitionTime"))
		switch og := m["observedGeneration"].(type) {
		case int64:
			c.ObservedGeneration = og
		case float64:
			c.ObservedGeneration = int64(og)
		}
		out = append(out, c)
	}
	return out
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// oneLine folds a multi-line message (Cluster API writes "* item" lists).
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
