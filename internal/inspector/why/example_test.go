package why_test

import (
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// A Flux Kustomization reconciled at generation 1, then edited: kstatus
// still says Current (Ready=True), but the condition's own
// observedGeneration says it predates the edit.
func ExampleJudge() {
	b, _ := os.ReadFile("testdata/flux-kustomization-ready.yaml")
	j, _ := yaml.YAMLToJSON(b)
	u := &unstructured.Unstructured{}
	_ = u.UnmarshalJSON(j)
	u.SetGeneration(2) // the user's edit

	v := why.Judge(u)
	fmt.Println(v.Status, "(kstatus alone:", v.KStatus+")")
	for _, e := range v.Evidence {
		fmt.Println(e)
	}
	// Output:
	// InProgress (kstatus alone: Current)
	// kstatus: Current (Resource is Ready)
	// Ready=True was observed at generation 1; the object is at generation 2: it says nothing yet about the latest change
}
