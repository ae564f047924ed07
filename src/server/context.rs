//! What the host knows about a request beyond its body: the protocol version, the session, and
//! what a V25 server declared at `initialize`.

use serde_json::{Map, Value};
use tsify::Tsify;

use crate::model::common::{JsonObject, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION};
use crate::model::ProtocolVersion;
use crate::store::{Caller, StoreError};

/// The task capabilities a V25 server declared in its `InitializeResult` (§A.e): methods it did
/// not declare answer -32601, and a server that did not declare `tasks.requests.tools.call`
/// ignores `params.task` (§D 40).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct V25Declared {
    /// `capabilities.tasks.list`.
    pub list: bool,
    /// `capabilities.tasks.cancel`.
    pub cancel: bool,
    /// `capabilities.tasks.requests.tools.call`.
    pub tool_calls: bool,
}

impl V25Declared {
    /// Everything declared.
    pub const ALL: V25Declared = V25Declared {
        list: true,
        cancel: true,
        tool_calls: true,
    };

    /// The `capabilities.tasks` object of the `InitializeResult` that declares exactly this
    /// (leaves are `{}`, §D 12); `None` when nothing is declared.
    pub fn capabilities(&self) -> Option<Value> {
        let mut tasks = Map::new();
        if self.list {
            tasks.insert("list".into(), Value::Object(Map::new()));
        }
        if self.cancel {
            tasks.insert("cancel".into(), Value::Object(Map::new()));
        }
        if self.tool_calls {
            tasks.insert(
                "requests".into(),
                serde_json::json!({ "tools": { "call": {} } }),
            );
        }
        (!tasks.is_empty()).then_some(Value::Object(tasks))
    }
}

impl Default for V25Declared {
    fn default() -> Self {
        V25Declared::ALL
    }
}

/// What a V25 server declared in its `InitializeResult` (`capabilities.tasks`). Given, a member
/// left out counts as not declared; the whole object left out declares everything.
#[derive(Debug, Default, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ServerDeclarations {
    /// `capabilities.tasks.list` (else `tasks/list` answers -32601).
    #[tsify(optional)]
    pub list: Option<bool>,
    /// `capabilities.tasks.cancel` (else `tasks/cancel` answers -32601).
    #[tsify(optional)]
    pub cancel: Option<bool>,
    /// `capabilities.tasks.requests.tools.call` (else `params.task` is ignored).
    #[tsify(optional)]
    pub tool_calls: Option<bool>,
}

/// A tool's own settings of the tasks its calls create (TaskHost `ToolOptions`); a member left
/// out takes the store's setting.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TaskSettings {
    /// The `pollInterval`/`pollIntervalMs` suggested to pollers (ms).
    #[tsify(optional)]
    pub poll_interval_ms: Option<u64>,
    /// The TTL of a task whose creator asked for none (ms).
    #[tsify(optional)]
    pub default_ttl_ms: Option<u64>,
    /// The largest TTL granted (ms).
    #[tsify(optional)]
    pub max_ttl_ms: Option<u64>,
}

/// The context of one request: the second argument of `handle`, `beginToolCall` and
/// `syncToolResponse`.
#[derive(Debug, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ServerContext {
    /// The version the request is served under: the one negotiated at `initialize` (V25) or the
    /// one the request's own `_meta` names (V26).
    pub protocol_version: ProtocolVersion,
    /// The session (authorization context) of the request; absent or `null`: none.
    #[tsify(optional, type = "string | null")]
    pub session: Option<String>,
    /// The owner of the request: the authenticated principal the host derived from its auth
    /// info (TaskHost: `ClientChannel.owner`, its `owner` option, else client id and subject).
    /// A task it creates is bound to it; a task bound to another owner answers as unknown
    /// (§D 38). Absent or `null`: none (tasks bound to an owner are invisible to it).
    #[tsify(optional, type = "string | null")]
    pub owner: Option<String>,
    /// The settings of a task this request creates (the called tool's own), over the store's.
    #[tsify(optional)]
    pub task: Option<TaskSettings>,
    /// V25 only: what the server declared (default: everything).
    #[tsify(optional)]
    pub declared: Option<ServerDeclarations>,
    /// The current time in Unix milliseconds (default `Date.now()`).
    #[tsify(optional)]
    pub now: Option<u64>,
}

impl ServerContext {
    /// The core's context, and the time when given (the bindings default it to `Date.now()`).
    /// Declarations left out declare everything; a member left out of given ones, nothing.
    pub fn into_core(self) -> (RequestContext, Option<u64>) {
        let declared = self.declared.map_or(V25Declared::ALL, |d| V25Declared {
            list: d.list.unwrap_or(false),
            cancel: d.cancel.unwrap_or(false),
            tool_calls: d.tool_calls.unwrap_or(false),
        });
        let context = RequestContext {
            version: self.protocol_version,
            session: self.session,
            owner: self.owner,
            task: self.task.unwrap_or_default(),
            declared,
        };
        (context, self.now)
    }
}

/// The context of one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestContext {
    /// The protocol version the request is served under: the one negotiated at `initialize`
    /// (V25), or the one the request's own `_meta` names (V26; see [`request_protocol`]).
    pub version: ProtocolVersion,
    /// The session (authorization context) the request comes from; tasks are bound to it and
    /// invisible to every other one (§D 38). `None`: no session.
    pub session: Option<String>,
    /// The owner (authenticated principal) the request comes from; tasks are bound to it and
    /// invisible to every other owner (§D 38). `None`: no owner.
    pub owner: Option<String>,
    /// The settings of a task this request creates (the tool's own).
    pub task: TaskSettings,
    /// V25 only: what the server declared (ignored under V26).
    pub declared: V25Declared,
}

impl RequestContext {
    /// A V25 request without session, the server having declared everything.
    pub fn v25() -> Self {
        RequestContext {
            version: ProtocolVersion::V2025,
            session: None,
            owner: None,
            task: TaskSettings::default(),
            declared: V25Declared::ALL,
        }
    }

    /// A V26 request without session.
    pub fn v26() -> Self {
        RequestContext {
            version: ProtocolVersion::V2026,
            session: None,
            owner: None,
            task: TaskSettings::default(),
            declared: V25Declared::ALL,
        }
    }

    /// A context for `version`.
    pub fn new(version: ProtocolVersion) -> Self {
        match version {
            ProtocolVersion::V2025 => Self::v25(),
            ProtocolVersion::V2026 => Self::v26(),
        }
    }

    /// The same context bound to `session`.
    pub fn session(mut self, session: impl Into<String>) -> Self {
        self.session = Some(session.into());
        self
    }

    /// The same context of the owner `owner`.
    pub fn owner(mut self, owner: impl Into<String>) -> Self {
        self.owner = Some(owner.into());
        self
    }

    /// The same context with the V25 declarations `declared`.
    pub fn declared(mut self, declared: V25Declared) -> Self {
        self.declared = declared;
        self
    }

    /// The store caller of this request.
    pub fn caller(&self) -> Caller<'_> {
        Caller::request(self.session.as_deref(), self.owner.as_deref())
    }
}

/// The protocol version a request's own `params._meta["io.modelcontextprotocol/protocolVersion"]`
/// names, when it names one this crate speaks (2026-07-28 requests always carry it, §B.a).
pub fn request_protocol(request: &Value) -> Option<ProtocolVersion> {
    request
        .get("params")
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(META_PROTOCOL_VERSION))
        .and_then(Value::as_str)
        .and_then(ProtocolVersion::parse)
}

/// Whether the request's own `_meta` clientCapabilities declare the tasks extension (§B.e; a
/// client declaring only the V25 `capabilities.tasks` does not, §D 80). The validator's rule.
pub fn declares_extension(params: Option<&JsonObject>) -> bool {
    crate::validate::v2026::declares_extension(params)
}

/// The client capability an input request of `method` needs (§D 98): `elicitation/create` →
/// `elicitation`, `sampling/createMessage` → `sampling`, `roots/list` → `roots`.
pub fn input_capability(method: &str) -> Option<&'static str> {
    match method {
        "elicitation/create" => Some("elicitation"),
        "sampling/createMessage" => Some("sampling"),
        "roots/list" => Some("roots"),
        _ => None,
    }
}

/// §D 98: a task surfaces only input requests the client can answer, i.e. whose capability the
/// request that created the task declared in its own `_meta` clientCapabilities (V26 requests
/// carry them on every request, §B.a). `Err` names the first request that needs a capability
/// the client did not declare (a host bug: raising it would leave the task waiting forever).
pub fn check_input_capabilities(
    request: &Value,
    input_requests: &JsonObject,
) -> Result<(), StoreError> {
    let declared = request
        .get("params")
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(META_CLIENT_CAPABILITIES))
        .and_then(Value::as_object);
    for (key, input) in input_requests {
        let method = input.get("method").and_then(Value::as_str).unwrap_or("");
        let Some(capability) = input_capability(method) else {
            return Err(StoreError::InvalidInputRequest {
                key: Some(key.clone()),
                reason: format!("{method:?} is not an input request method"),
            });
        };
        if !declared.is_some_and(|caps| caps.contains_key(capability)) {
            return Err(StoreError::InvalidInputRequest {
                key: Some(key.clone()),
                reason: format!(
                    "{method} needs the client capability `{capability}`, which the request did not declare in its _meta (§D 98)"
                ),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_left_out_declare_everything_and_members_left_out_nothing() {
        let context = |declared| ServerContext {
            protocol_version: ProtocolVersion::V2025,
            session: Some("s".into()),
            owner: None,
            task: None,
            declared,
            now: Some(5),
        };
        let (core, now) = context(None).into_core();
        assert_eq!(core, RequestContext::v25().session("s"));
        assert_eq!(now, Some(5));
        let only_list = ServerDeclarations {
            list: Some(true),
            ..ServerDeclarations::default()
        };
        let (core, _) = context(Some(only_list)).into_core();
        assert_eq!(
            core.declared,
            V25Declared {
                list: true,
                cancel: false,
                tool_calls: false
            }
        );
    }
}
