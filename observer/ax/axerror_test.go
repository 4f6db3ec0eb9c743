package ax

import (
	"slices"
	"strings"
	"testing"

	"github.com/axbus/axbus/model"
)

func TestAXErrorTable(t *testing.T) {
	for _, tc := range []struct {
		err  AXError
		num  int32
		name string
		code model.Code
	}{
		{AXFailure, -25200, "kAXErrorFailure", model.CodeTransient},
		{AXIllegalArgument, -25201, "kAXErrorIllegalArgument", model.CodeBadRequest},
		{AXInvalidUIElement, -25202, "kAXErrorInvalidUIElement", model.CodeStaleRef},
		{AXInvalidUIElementObserver, -25203, "kAXErrorInvalidUIElementObserver", model.CodeInternal},
		{AXCannotComplete, -25204, "kAXErrorCannotComplete", model.CodeTransient},
		{AXAttributeUnsupported, -25205, "kAXErrorAttributeUnsupported", model.CodeNotSupported},
		{AXActionUnsupported, -25206, "kAXErrorActionUnsupported", model.CodeNotSupported},
		{AXNotificationUnsupported, -25207, "kAXErrorNotificationUnsupported", model.CodeNotSupported},
		{AXNotImplemented, -25208, "kAXErrorNotImplemented", model.CodeNotSupported},
		{AXNotificationAlreadyRegistered, -25209, "kAXErrorNotificationAlreadyRegistered", model.CodeInternal},
		{AXNotificationNotRegistered, -25210, "kAXErrorNotificationNotRegistered", model.CodeInternal},
		{AXAPIDisabled, -25211, "kAXErrorAPIDisabled", model.CodePermissionDenied},
		{AXNoValue, -25212, "kAXErrorNoValue", model.CodeNotSupported},
		{AXParameterizedAttributeUnsupported, -25213, "kAXErrorParameterizedAttributeUnsupported", model.CodeNotSupported},
		{AXNotEnoughPrecision, -25214, "kAXErrorNotEnoughPrecision", model.CodeBadRequest},
	} {
		if int32(tc.err) != tc.num {
			t.Errorf("%s = %d, want %d", tc.name, int32(tc.err), tc.num)
		}
		if got := tc.err.Code(); got != tc.code {
			t.Errorf("%s: code %s, want %s", tc.name, got, tc.code)
		}
		e := tc.err.Err("AXPress on ax:12:3")
		if e == nil || e.Code != tc.code || e.Suggestion == "" {
			t.Fatalf("%s: Err = %+v", tc.name, e)
		}
		if !strings.Contains(e.Message, tc.name) || !strings.Contains(e.Message, "AXPress on ax:12:3") {
			t.Errorf("%s: message %q", tc.name, e.Message)
		}
		if e.Details["ax_error"] != int(tc.num) {
			t.Errorf("%s: details %v", tc.name, e.Details)
		}
	}
	if len(axErrors) != 15 {
		t.Errorf("the table has %d entries, want the 15 AXError codes but Success", len(axErrors))
	}
}

func TestAXErrorSuccessIsNoError(t *testing.T) {
	if e := AXSuccess.Err("read"); e != nil {
		t.Fatalf("Success.Err = %v", e)
	}
	if AXSuccess.Code() != "" || AXSuccess.String() != "kAXErrorSuccess (0)" {
		t.Fatalf("Success = %q %q", AXSuccess.Code(), AXSuccess)
	}
}

func TestAXErrorUnknownCode(t *testing.T) {
	e := AXError(-1).Err("read")
	if e.Code != model.CodeInternal || e.Suggestion == "" || !strings.Contains(e.Message, "(-1)") {
		t.Fatalf("unknown = %+v", e)
	}
}

func TestAXErrorPermissionNamesTheSetting(t *testing.T) {
	s := AXAPIDisabled.Err("not trusted").Suggestion
	for _, want := range []string{"System Settings > Privacy & Security > Accessibility", "terminal", "axbus binary"} {
		if !strings.Contains(s, want) {
			t.Errorf("suggestion %q does not name %q", s, want)
		}
	}
}

func TestAXErrorCodesAreKnown(t *testing.T) {
	for e, i := range axErrors {
		if !slices.Contains(model.Codes, i.code) {
			t.Errorf("%s maps to unknown code %q", e, i.code)
		}
	}
}
