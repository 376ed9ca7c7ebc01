package logs

import (
	"bytes"
	"strings"
	"time"
)

// fields are the key/values of a line, whatever its format.
type fields struct {
	at                      time.Time
	msg, logger             string
	caller                  []byte // klog's file, "controller" for controller.go:321
	callerLine              int    // its line, 321; 0 when not written (sites.go)
	controller, group, kind string
	namespace, name         string
	// refVal is a "namespace/name" reference (request, object,
	// Kind=...), read through ref: refObj, when set, is an object
	// member's raw JSON not read into it yet. Most lines name their key
	// by namespace and name as well, after the object, and nothing asks
	// for the reference: reading every line's object was a twentieth of
	// a read of controller-runtime's V(5) log (BenchmarkRead1M).
	refVal       string
	refObj       []byte
	alt, altName string // a family's own key field (cert-manager's "key")
	err          string
	reconcileID  string
	items        []byte
	// A forget line's: reset is its raw JSON array of "key(state, N
	// failures)"; the rest as written.
	reset                                []byte
	requeue, spread, count, user, reason string
	// failures is a stated failure count field (failures=16: the queue's
	// NumRequeues before this failure).
	failures string
	// waited is the delay the line's attempt waited in the queue, as
	// written (waiteddelay.go).
	waited string
	// took is how long the line's sync took, as written (took.go).
	took string
	// requeueAt is Crossplane's "requeue-after": when a RequeueAfter ends.
	requeueAt string
	// timeKey and msgKey are the names a JSON line gave its time and its
	// message: they tell the logger (sampledJSON).
	timeKey, msgKey string
	// intern, when set, keeps the values that recur line after line
	// (interner): one string each, not one a line.
	intern *interner
	// keyField is the one field of no name this package knows whose value
	// is a namespace/name (job="team/migrate", PVC="ns/x", logrus'
	// cluster-name=ns/x): a key the generic reader may read when the
	// message names none; keyFields counts such fields of distinct values.
	keyField  string
	keyFields int
	// keyFieldName is keyField's name, as written (pod="ns/x": "pod").
	keyFieldName string
	// clusterField is the one field named after a cluster-scoped kind
	// whose value is a name ("node":"n1"); clusterFields counts them
	// (clusterfield.go).
	clusterField  string
	clusterFields int
	// kindField and kindRef are the one string field named like a Kind
	// whose value is a key ("Istio": "default"); kindFields counts them
	// (kindlogger.go).
	kindField, kindRef string
	kindFields         int
	// kindObj is the one object field named like a Kind, its value
	// kindObjRaw ({"name":…,"namespace":…}, read when asked); kindObjs
	// counts them (kindlogger.go).
	kindObj, kindObjRaw []byte
	kindObjs            int
	// subjectField is the value of the field named by the message's first
	// word ("rollout syncHandler error: …" rollout=x), subjectName that
	// word (subjectfield.go).
	subjectName, subjectField string
	// callerPkg is the directory of the file a zap caller names
	// ("pipeline" of "pipeline/controller.go:85"); callerField is the one
	// field of that name whose value is a name, callerFields counts them
	// (callerfield.go).
	callerPkg    []byte
	callerField  string
	callerFields int
	// eventKey is the key of the event line just before this one, given
	// by the store when the message names its object (eventkey.go).
	eventKey string
	// keyBefore and kindBefore are the key of the line just before this
	// one, of the same attempt, and its field's Kind (keybefore.go).
	keyBefore, kindBefore string
	// severe says the line is logged at error or warning level (or above),
	// as its format writes levels; the generic reader reads no other line
	// that has no error field.
	severe bool
	// leveled says the format read a level from the line (any level).
	leveled bool
	// noLevel says the line's format writes no level (Go's standard
	// log): not info, unknown.
	noLevel bool
	// bare says the line is a message alone, without time, level or
	// caller (a paste of its text): read only when it opens with the
	// failure (or its controller's name and the failure), names one key
	// and states its error after it.
	bare bool
	// What lineMemo asks of a JSON line read: whole, that its object was
	// read to its end; readBy, the dialect that read its record; timeRaw
	// and idRaw, the raw values of its time and reconcileID members, and
	// times and ids how many of each it has.
	whole          bool
	readBy         *Dialect
	timeRaw, idRaw []byte
	times, ids     int
	// nameRaw is the raw value of its name member, names how many it has,
	// and keyFromName says the record's key was read from the namespace
	// and name members (a dialect's default): a line the same but for its
	// name is then the record of that name (linememo.go).
	nameRaw     []byte
	names       int
	keyFromName bool
}

// wants says whether the value of key is kept: the others are skipped
// without being copied.
func (f *fields) wants(key []byte) bool {
	return fieldKeyOf(key).kept() || f.kind != "" && string(key) == f.kind
}

// set records one key/value; val is already a plain string. The key is
// bytes of the line: switching on it does not copy it.
func (f *fields) set(key []byte, val string) { f.setKey(fieldKeyOf(key), key, val) }

// setKey is set of a key classified as k.
func (f *fields) setKey(k fieldKey, key []byte, val string) {
	switch k {
	case fkMsg:
		f.msg, f.msgKey = val, "msg"
	case fkMessage:
		if f.msg == "" { // Karpenter's JSON; a field of klogr lines otherwise
			f.msg = val
		}
	case fkLogger:
		f.logger = val
	case fkComponent: // go-kit's
		if f.logger == "" {
			f.logger = val
		}
	case fkController:
		f.controller = val
	case fkGroup:
		f.group = val
	case fkKind:
		f.kind = val
	case fkNamespace:
		f.namespace = val
	case fkName:
		f.name = val
	case fkRef:
		f.setRef(val)
	case fkErr:
		f.err = val
	case fkReconcileID:
		f.reconcileID = val
	case fkKey:
		f.alt, f.altName = val, "key"
	case fkObjectReference:
		f.alt, f.altName = val, "objectReference"
	case fkDeployment:
		f.alt, f.altName = val, "deployment"
	case fkRequeue:
		f.requeue = val
	case fkSpread:
		f.spread = val
	case fkCount:
		f.count = val
	case fkUser:
		f.user = val
	case fkReason:
		f.reason = val
	case fkRequeueAfter:
		f.requeueAt = val
	case fkFailures:
		f.failures = val
	case fkWaited:
		f.waited = val
	case fkTook:
		f.took = val
	case fkKnativeKey:
		f.alt, f.altName = val, knativeKey
	case fkKnativeController:
		if f.controller == "" {
			f.controller = val
		}
	default:
		// The kind-named reference klog writes as text (Cluster="ns/x"),
		// after controllerKind.
		if f.kind != "" && string(key) == f.kind && f.ref() == "" {
			f.setRef(val)
		}
	}
}

// ref is the line's reference, its pending object read first: what it
// was had the object been read when met.
func (f *fields) ref() string {
	if f.refObj != nil {
		f.refVal, f.refObj = f.intern.of(f.refObj, objectRef), nil
	}
	return f.refVal
}

// setRef sets the reference, over any object pending.
func (f *fields) setRef(v string) { f.refVal, f.refObj = v, nil }

// controllerFromLogger reads the controller's name from the logger name the
// releases before v0.11 used: "controller-runtime.manager.controller.NAME",
// "controller.NAME", or with slashes as klogr wrote them.
func controllerFromLogger(logger string) string {
	i := strings.LastIndex(logger, "controller.")
	if j := strings.LastIndex(logger, "controller/"); j > i {
		i = j
	}
	if i < 0 {
		return ""
	}
	return logger[i+len("controller."):]
}

// splitRef splits "namespace/name" (a klog.ObjectRef or reconcile.Request as
// text); a reference without a slash is a cluster-scoped name.
func splitRef(ref string) (string, string) {
	if ns, name, ok := strings.Cut(ref, "/"); ok {
		return ns, name
	}
	return "", ref
}

// parseItems reads workqueue_items' JSON array of
// {"key":{"Namespace":..,"Name":..},"addedCounter":..,"priority":..,"readyAt":..}.
// A key that is not a reconcile.Request (a typed controller's own type) is
// kept as its JSON text.
func parseItems(raw []byte) ([]QueueItem, bool) {
	var out []QueueItem
	ok := eachElement(raw, func(el []byte) {
		var it QueueItem
		var ns, name string
		eachMember(el, 0, func(k, v []byte) bool {
			switch string(k) {
			case "key":
				if len(v) > 0 && v[0] == '{' {
					eachMember(v, 0, func(k2, v2 []byte) bool {
						switch string(k2) {
						case "Namespace", "namespace":
							ns = jsonString(v2)
						case "Name", "name":
							name = jsonString(v2)
						}
						return true
					})
					if name == "" {
						name = string(v)
					}
				} else {
					ns, name = splitRef(jsonString(v))
				}
			case "addedCounter":
				it.AddedCounter = parseUint(v)
			case "priority":
				it.Priority = int(parseInt(v))
			case "readyAt":
				it.ReadyAt = parseTime(jsonString(v))
			}
			return true
		})
		if name == "" {
			return
		}
		it.Key = name
		if ns != "" {
			it.Key = ns + "/" + name
		}
		out = append(out, it)
	})
	return out, ok
}

func parseUint(b []byte) uint64 {
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return n
		}
		n = n*10 + uint64(c-'0')
	}
	return n
}

func parseInt(b []byte) int64 {
	if len(b) > 0 && b[0] == '-' {
		return -int64(parseUint(b[1:]))
	}
	return int64(parseUint(b))
}

// severeLevels are the levels, as loggers write them (in any case), of
// error or warning or above.
var severeLevels = [][]byte{[]byte("error"), []byte("err"), []byte("erro"), []byte("e"), []byte("warn"), []byte("warning"), []byte("w"),
	[]byte("fatal"), []byte("fata"), []byte("dpanic"), []byte("panic"), []byte("critical"), []byte("crit"), []byte("alert"), []byte("emergency")}

// severeLevel says whether level (a JSON string with its quotes, or a bare
// word) is error or warning or above; it allocates nothing, as it runs on
// every line.
func severeLevel(level []byte) bool {
	if n := len(level); n >= 2 && level[0] == '"' && level[n-1] == '"' {
		level = level[1 : n-1]
	}
	// Most lines are info or debug: rejected by their first letter, which
	// no severe level's starts with (in ASCII: only k and s fold to a
	// letter outside it, and no level has them).
	if len(level) == 0 {
		return false
	}
	switch level[0] | 0x20 {
	case 'e', 'w', 'f', 'd', 'p', 'c', 'a':
	default:
		return false
	}
	for _, l := range severeLevels {
		if bytes.EqualFold(level, l) {
			return true
		}
	}
	return false
}
