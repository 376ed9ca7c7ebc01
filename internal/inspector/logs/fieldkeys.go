package logs

// fieldKey is what a field's name means to this package: which of a
// line's values it is, or nothing. A JSON line's names are classified once
// each (fieldKeyOf): asking the same name in turn whether it was a time,
// a level, a kept field, a recurring one and which one — a switch on its
// bytes each time — cost, with the time key's copy, about a sixth of a
// zap JSON line's parse (BenchmarkParse100k).
type fieldKey uint8

const (
	fkNone fieldKey = iota
	// The names setRaw reads itself.
	fkTs
	fkTime
	fkTimestamp
	fkItems
	fkReset
	fkLevel
	fkSkipped // stacktrace, caller: skipped unread
	// The names fields.set keeps (fields.wants).
	fkMsg
	fkMessage
	fkLogger
	fkComponent
	fkController
	fkGroup
	fkKind
	fkNamespace
	fkName
	fkRef
	fkErr
	fkReconcileID
	fkKey
	fkObjectReference
	fkDeployment
	fkRequeue
	fkSpread
	fkCount
	fkUser
	fkReason
	fkRequeueAfter
	fkFailures
	fkKnativeKey
	fkKnativeController
	fkWaited
	fkTook
)

// fieldKeyOf classifies a field's name.
func fieldKeyOf(key []byte) fieldKey {
	switch string(key) {
	case "ts":
		return fkTs
	case "time":
		return fkTime
	case "timestamp":
		return fkTimestamp
	case "items":
		return fkItems
	case "reset":
		return fkReset
	case "level", "severity":
		return fkLevel
	case "stacktrace", "caller":
		return fkSkipped
	case "msg":
		return fkMsg
	case "message":
		return fkMessage
	case "logger":
		return fkLogger
	case "component":
		return fkComponent
	case "controller":
		return fkController
	case "controllerGroup", "reconciler group":
		return fkGroup
	case "controllerKind", "reconciler kind":
		return fkKind
	case "namespace":
		return fkNamespace
	case "name":
		return fkName
	case "request", "object":
		return fkRef
	case "error", "err":
		return fkErr
	case "reconcileID":
		return fkReconcileID
	case "key", "item":
		// item: what kube-controller-manager's HandleErrorWithContext
		// calls the work queue's key ("Service account work item
		// failed" item="ns"), a bare name when cluster-scoped.
		return fkKey
	case "objectReference":
		return fkObjectReference
	case "deployment":
		return fkDeployment
	case "requeue":
		return fkRequeue
	case "spread":
		return fkSpread
	case "count":
		return fkCount
	case "user":
		return fkUser
	case "reason":
		return fkReason
	case "requeue-after":
		return fkRequeueAfter
	case "failures", "failure":
		return fkFailures
	case knativeKey:
		return fkKnativeKey
	case knativeController:
		return fkKnativeController
	case waitedField:
		return fkWaited
	case "duration", "elapsed":
		// How long a sync took, as kube-controller-manager's "Finished
		// syncing" lines state it (took.go).
		return fkTook
	}
	return fkNone
}

// kept says fields.set keeps a value of this name.
func (k fieldKey) kept() bool { return k >= fkMsg }

// recurring says the values of this name recur line after line (interner).
func (k fieldKey) recurring() bool {
	switch k {
	case fkMsg, fkMessage, fkLogger, fkController, fkGroup, fkKind, fkNamespace, fkName, fkErr:
		return true
	}
	return false
}
