package atspi

import (
	"strings"

	"github.com/axbus/axbus/model"
)

// The D-Bus error names that the backend tells apart.
const (
	dbusServiceUnknown   = "org.freedesktop.DBus.Error.ServiceUnknown"
	dbusNameHasNoOwner   = "org.freedesktop.DBus.Error.NameHasNoOwner"
	dbusDisconnected     = "org.freedesktop.DBus.Error.Disconnected"
	dbusUnknownObject    = "org.freedesktop.DBus.Error.UnknownObject"
	dbusUnknownMethod    = "org.freedesktop.DBus.Error.UnknownMethod"
	dbusUnknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
	dbusUnknownProperty  = "org.freedesktop.DBus.Error.UnknownProperty"
	dbusNoReply          = "org.freedesktop.DBus.Error.NoReply"
	dbusTimeout          = "org.freedesktop.DBus.Error.Timeout"
	dbusTimedOut         = "org.freedesktop.DBus.Error.TimedOut"
	dbusLimitsExceeded   = "org.freedesktop.DBus.Error.LimitsExceeded"
	dbusNoMemory         = "org.freedesktop.DBus.Error.NoMemory"
	dbusInvalidArgs      = "org.freedesktop.DBus.Error.InvalidArgs"
	dbusNotSupported     = "org.freedesktop.DBus.Error.NotSupported"
	dbusAccessDenied     = "org.freedesktop.DBus.Error.AccessDenied"
)

// codeOfDBusError maps a D-Bus error (its name and first message) onto an observer error code.
//
// Toolkits report a vanished object differently: atk-bridge (GTK3) answers UnknownObject, GTK4
// answers UnknownMethod "Object does not exist at path ...". An unknown interface or method on a
// live object is NOT_SUPPORTED. A destination that is gone from the bus is APP_GONE; the bus's
// own reply timeout is APP_NOT_RESPONDING.
func codeOfDBusError(name, message string) model.Code {
	switch name {
	case dbusServiceUnknown, dbusNameHasNoOwner, dbusDisconnected:
		return model.CodeAppGone
	case dbusUnknownObject:
		return model.CodeElementNotFound
	case dbusUnknownMethod, dbusUnknownInterface, dbusUnknownProperty:
		m := strings.ToLower(message)
		if strings.Contains(m, "does not exist at path") || strings.Contains(m, "no such object") ||
			(strings.Contains(m, "object") && strings.Contains(m, "does not exist")) {
			return model.CodeElementNotFound
		}
		return model.CodeNotSupported
	case dbusNoReply, dbusTimeout, dbusTimedOut:
		return model.CodeAppNotResponding
	case dbusLimitsExceeded, dbusNoMemory:
		return model.CodeTransient
	case dbusInvalidArgs:
		return model.CodeBadRequest
	case dbusNotSupported:
		return model.CodeNotSupported
	case dbusAccessDenied:
		return model.CodePermissionDenied
	}
	if strings.HasSuffix(name, ".Defunct") || strings.Contains(strings.ToLower(message), "defunct") {
		return model.CodeElementNotFound
	}
	return model.CodeInternal
}

// suggestionFor is the suggestion that goes with an error code of this backend: what the D-Bus
// side of it means to a user; "" (the code table's default) where there is nothing to add.
func suggestionFor(code model.Code) string {
	switch code {
	case model.CodeAppGone:
		return "The app has exited; find it again with axbus apps and inspect anew."
	case model.CodeElementNotFound:
		return "The element is gone (the app destroyed it); inspect again to get fresh ids."
	case model.CodeAppNotResponding:
		return "The app did not answer in time; it may be busy or frozen. Retry later or check that it is alive."
	case model.CodeNotSupported:
		return "The element does not offer this; use another action or physical input."
	case model.CodeTransient:
		return "The bus was busy; retry shortly."
	case model.CodePermissionDenied:
		return "The bus refused the call; check the session's D-Bus policy."
	case model.CodeBadRequest:
		return "Check the request's arguments."
	}
	return ""
}
