package demo

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		change  func(*Options)
		wantErr string // "" for valid
	}{
		{"defaults", func(*Options) {}, ""},
		{"max keys", func(o *Options) { o.Keys = MaxKeys }, ""},
		{"port 0", func(o *Options) { o.Listen = "127.0.0.1:0" }, ""},
		{"negative keys", func(o *Options) { o.Keys = -1 }, "Keys must be between 1 and 100000, got -1"},
		{"too many keys", func(o *Options) { o.Keys = MaxKeys + 1 }, "Keys must be between 1 and 100000, got 100001"},
		{"zero speed", func(o *Options) { o.Speed = 0 }, "Speed must be greater than 0 and at most 10000, got 0"},
		{"speed too high", func(o *Options) { o.Speed = maxSpeed * 2 }, ", got 20000"},
		{"negative jitter", func(o *Options) { o.Jitter = -0.1 }, "Jitter must be between 0 and 1 (0.25 is ±25%), got -0.1"},
		{"jitter over 1", func(o *Options) { o.Jitter = 1.5 }, ", got 1.5"},
		{"listen without port", func(o *Options) { o.Listen = "nonsense" }, "Listen nonsense: "},
		{"listen bad port", func(o *Options) { o.Listen = "127.0.0.1:http2x" }, "Listen 127.0.0.1:http2x"},
		{"both cluster modes", func(o *Options) { o.Kubeconfig, o.InCluster = "kc", true }, "mutually exclusive"},
		{"outage longer than period", func(o *Options) { o.Outage, o.OutageEvery = time.Minute, time.Minute }, "shorter than its period"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := DefaultOptions()
			tt.change(&o)
			err := o.Validate()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("Validate() = %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		n    int
		want []int
	}{
		{1, []int{1, 0, 0, 0, 0, 0}},
		{60, []int{30, 6, 6, 9, 6, 3}},
		{200, []int{100, 20, 20, 30, 20, 10}},
		{100_000, []int{54_980, 10_000, 10_000, 15_000, 10_000, 20}},
	}
	for _, tt := range tests {
		got := split(tt.n)
		sum := 0
		for _, c := range got {
			sum += c
		}
		if sum != tt.n || !slices.Equal(got, tt.want) {
			t.Errorf("split(%d) = %v (sum %d), want %v", tt.n, got, sum, tt.want)
		}
	}
}

func TestSchedule(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := schedule{start: start, warmup: 10 * time.Second, outage: 2 * time.Minute, every: 5 * time.Minute}
	at := func(d time.Duration) time.Time { return start.Add(d) }
	tests := []struct {
		at       time.Duration
		down     bool
		from, to time.Duration
	}{
		{0, false, 10 * time.Second, 130 * time.Second},
		{10 * time.Second, true, 10 * time.Second, 130 * time.Second},
		{129 * time.Second, true, 10 * time.Second, 130 * time.Second},
		{130 * time.Second, false, 310 * time.Second, 430 * time.Second},
		{320 * time.Second, true, 310 * time.Second, 430 * time.Second},
	}
	for _, tt := range tests {
		if got := s.down(at(tt.at)); got != tt.down {
			t.Errorf("down(+%v) = %v, want %v", tt.at, got, tt.down)
		}
		from, to := s.window(at(tt.at))
		if !from.Equal(at(tt.from)) || !to.Equal(at(tt.to)) {
			t.Errorf("window(+%v) = +%v..+%v, want +%v..+%v", tt.at, from.Sub(start), to.Sub(start), tt.from, tt.to)
		}
	}
}

// TestEnsureObjects checks what the cluster mode creates, against the fake
// client: the namespace and the missing ConfigMaps, labelled, and nothing twice.
func TestEnsureObjects(t *testing.T) {
	ctx := context.Background()
	existing := newObject("demo", &scenarios[0], 0)
	existing.Data[storageClassKey] = "kept"
	c := fake.NewClientBuilder().WithObjects(existing).Build()
	counts := split(20)

	created, err := ensureObjects(ctx, c, "demo", counts)
	if err != nil {
		t.Fatalf("ensureObjects: %v", err)
	}
	if e, a := 19, created; e != a {
		t.Errorf("created %d, want %d (one existed)", a, e)
	}
	var ns corev1.Namespace
	if err := c.Get(ctx, client.ObjectKey{Name: "demo"}, &ns); err != nil {
		t.Errorf("namespace demo: %v", err)
	}
	var list corev1.ConfigMapList
	if err := c.List(ctx, &list, client.InNamespace("demo"), client.MatchingLabels{PartOfLabel: PartOfValue}); err != nil {
		t.Fatalf("list: %v", err)
	}
	if e, a := 20, len(list.Items); e != a {
		t.Errorf("%d labelled ConfigMaps, want %d", a, e)
	}
	var kept corev1.ConfigMap
	if err := c.Get(ctx, client.ObjectKeyFromObject(existing), &kept); err != nil || kept.Data[storageClassKey] != "kept" {
		t.Errorf("existing object changed: %v %v", kept.Data, err)
	}
	var naive corev1.ConfigMap
	if err := c.Get(ctx, client.ObjectKey{Namespace: "demo", Name: "naive-00000"}, &naive); err != nil || naive.Data[storageClassKey] != "" {
		t.Errorf("naive-00000 should lack a storage class: %v %v", naive.Data, err)
	}

	again, err := ensureObjects(ctx, c, "demo", counts)
	if err != nil || again != 0 {
		t.Errorf("second ensureObjects = %d, %v; want 0, nil", again, err)
	}
}

// TestEnsureObjectsExistingNamespace: in a pod whose role may read its own
// namespace but not create namespaces (config/samples), the demo starts.
func TestEnsureObjectsExistingNamespace(t *testing.T) {
	ctx := context.Background()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "demo"}}
	c := fake.NewClientBuilder().WithObjects(ns).WithInterceptorFuncs(interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if _, ok := obj.(*corev1.Namespace); ok {
				return apierrors.NewForbidden(corev1.Resource("namespaces"), obj.GetName(), errors.New("RBAC: not allowed"))
			}
			return c.Create(ctx, obj, opts...)
		},
	}).Build()
	created, err := ensureObjects(ctx, c, "demo", split(6))
	if err != nil || created != 6 {
		t.Errorf("ensureObjects = %d, %v; want 6, nil (the namespace exists: no create)", created, err)
	}
	// Missing, the namespace is created, and a refusal says which.
	if _, err := ensureObjects(ctx, c, "other", split(6)); err == nil || !strings.Contains(err.Error(), "create namespace other") {
		t.Errorf("ensureObjects in a missing namespace, creation refused: err = %v, want it to name the namespace", err)
	}
}
