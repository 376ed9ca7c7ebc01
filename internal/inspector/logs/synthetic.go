package logs

// Some work queues hold an item that names no object: a token that stands
// for the controller's whole sync. openshift/library-go's controller
// factory queues the literal "key" for almost every controller ("95% of all
// controller using factory just use string "key" as queue key",
// library-go#1005), and so do the apiserver library's dynamic CA
// controllers (configmap_cafile_content.go, "key failed with : ERR");
// ingress-nginx requeues "initial-sync", ingress-gce's firewall queue
// "queueKey" (a fake Ingress every event enqueues). Decided in stop 62
// (docs/log-mode.md, "Synthetic items"): such an item is not a key. A
// key is what a user looking for an object finds, describes and kicks;
// a synthetic item is no object (`why TYPE/NAME` cannot reach it, `kick`
// has nothing to patch), and a row named "key" under each failing
// controller would mix the controller's health into the table of objects.
// Its line still looked like a failure, and --explain-lines says why it
// was not read.
//
// How each is left unread: "initial-sync" and "queueKey" by the task
// queue's reading, which takes only a namespace/name (requeueerr.go);
// "key failed with : ERR" by keyFailedWith, which takes a bare name only
// with a dash or a dot (generickey.go); and library-go's `"NAME" controller
// failed to sync "key", err: ERR`, whose quoted "key" has the form of a
// cluster-scoped object's name, here. Safe because it only ever refuses:
// the one word is the constant those libraries write for their item, and
// an object of that exact name quoted in a failure line is the one case it
// leaves unread.

// syntheticItem is the constant item of library-go's controller factory
// and of the apiserver library's dynamic CA controllers, as a cluster-
// scoped key reads it.
const syntheticItem = "/key"

// syntheticItemWhy says why a failure of the synthetic item is not read.
const syntheticItemWhy = `names its queue's synthetic item "key" (the one item openshift/library-go's controller factory ` +
	"and the apiserver library's CA controllers queue for their whole sync), no object: not read as a key " +
	`(docs/log-mode.md, "Synthetic items")`
