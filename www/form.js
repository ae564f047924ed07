// Live mode's tool forms, built from each tool's `inputSchema` (JSON Schema, as `tools/list`
// gives it): a `required` property is marked and a call with it empty is refused with a message
// at the field (never left out of the arguments without a word); a `description` is the field's
// description (aria-describedby); a `default` is filled in; an `enum` (or a `oneOf`/`anyOf` of
// `const`s) is a select; booleans are checkboxes (a select "not set / true / false" when the
// property is optional and has no default, so "not set" stays possible); numbers and integers are
// number inputs read as numbers (an integer must be one); strings are text; arrays, objects and
// anything else are JSON, checked against the type the schema names. "Edit as JSON" shows the
// whole arguments object as JSON text (what the fields hold), which is parsed and checked before
// the call. The form never validates natively (no browser bubbles): messages are text in the page.
// Plain DOM, no dependencies.

let formNo = 0;

/** An HTML element with attributes and children (strings become text). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null && v !== false) el.setAttribute(k, v === true ? "" : String(v));
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
/** A piece of an element id: ids hold no white space. */
const idPart = (s) => String(s).replace(/\s/g, "_");

/** The values an `enum`, a `const` or a `oneOf`/`anyOf` of `const`s allows, with their titles; else null. */
function choicesOf(schema) {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.map((value) => ({ value, title: null }));
  if ("const" in schema) return [{ value: schema.const, title: schema.title ?? null }];
  for (const key of ["oneOf", "anyOf"]) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0 && list.every((o) => isObject(o) && "const" in o)) return list.map((o) => ({ value: o.const, title: typeof o.title === "string" ? o.title : null }));
  }
  return null;
}

/** The kind of field a property schema gets. */
function kindOf(schema) {
  if (choicesOf(schema)) return "enum";
  switch (schema.type) {
    case "boolean":
    case "integer":
    case "number":
    case "string":
      return schema.type;
    default:
      return "json"; // arrays, objects, type lists, no type: JSON text
  }
}

/** Whether `value` is of JSON Schema type `type` (a name or a list of names; none: anything). */
function typeOk(value, type) {
  if (type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) =>
    t === "null" ? value === null
    : t === "array" ? Array.isArray(value)
    : t === "object" ? isObject(value)
    : t === "integer" ? Number.isInteger(value)
    : t === "number" ? typeof value === "number"
    : typeof value === t);
}

const typeName = (type) => (Array.isArray(type) ? type.join(" or ") : type ?? "JSON");
const show = (v) => (typeof v === "string" ? v : JSON.stringify(v));

/** One field: its control and how to read it (`{ value }`, `{ unset: true }` or `{ error }`). */
function field(tool, prop, schema, required) {
  const id = `arg-${idPart(tool)}-${idPart(prop)}`;
  const kind = kindOf(schema);
  const hasDefault = "default" in schema;
  const descId = `${id}-d`;
  const errId = `${id}-e`;
  const desc = typeof schema.description === "string" && schema.description !== "" ? h("p", { class: "hint field-desc", id: descId }, schema.description) : null;
  const error = h("p", { class: "field-error", id: errId, hidden: true });
  const marker = required ? h("span", { class: "required-mark" }, " (required)") : null;
  const typeHint = h("span", { class: "hint" }, ` (${kind === "enum" ? "one of" : typeName(schema.type)})`);
  const common = { id, name: prop, required, "aria-describedby": desc ? descId : null, "data-kind": kind };
  let input;
  let box;
  if (kind === "boolean" && (required || hasDefault)) {
    // Not `required`: on a checkbox that would mean "must be checked"; false is a value too.
    input = h("input", { type: "checkbox", ...common, required: false });
    input.checked = schema.default === true;
    box = h("div", { class: "check field-check" }, input, h("label", { for: id }, prop, marker), desc, error);
  } else {
    let options = null;
    if (kind === "boolean") options = [{ value: true, title: null }, { value: false, title: null }];
    else if (kind === "enum") options = choicesOf(schema);
    if (options) {
      // The option values are indexes into `options`: a number stays a number, null stays null.
      const blank = !hasDefault || !options.some((o) => JSON.stringify(o.value) === JSON.stringify(schema.default));
      input = h("select", common,
        blank ? h("option", { value: "" }, required ? "choose one" : "not set") : null,
        options.map((o, i) => h("option", { value: String(i) }, o.title ? `${o.title} (${show(o.value)})` : show(o.value))));
      if (!blank) input.value = String(options.findIndex((o) => JSON.stringify(o.value) === JSON.stringify(schema.default)));
      input.choices = options;
    } else if (kind === "integer" || kind === "number") {
      input = h("input", { type: "number", ...common, step: kind === "integer" ? "1" : "any", min: schema.minimum, max: schema.maximum, inputmode: kind === "integer" ? "numeric" : "decimal" });
      if (typeof schema.default === "number") input.value = String(schema.default);
    } else if (kind === "string") {
      input = h("input", { type: "text", ...common, spellcheck: "false", autocomplete: "off" });
      if (typeof schema.default === "string") input.value = schema.default;
    } else {
      input = h("textarea", { ...common, rows: "2", spellcheck: "false", placeholder: schema.type === "array" ? "a JSON array, e.g. [1, 2]" : schema.type === "object" ? 'a JSON object, e.g. {"a": 1}' : "JSON" });
      if (hasDefault) input.value = JSON.stringify(schema.default);
    }
    box = h("div", { class: "field" }, h("label", { for: id }, prop, typeHint, marker), desc, input, error);
  }

  /** The value the field holds, `{ unset: true }` when it is empty, or `{ error }`. */
  function read() {
    if (input.type === "checkbox") return { value: input.checked };
    if (input.tagName === "SELECT") return input.value === "" ? { unset: true } : { value: input.choices[Number(input.value)].value };
    if (input.type === "number") {
      if (input.validity.badInput) return { error: "not a number" };
      if (input.value === "") return { unset: true };
      const n = Number(input.value);
      if (kind === "integer" && !Number.isInteger(n)) return { error: `an integer is wanted (got ${input.value})` };
      return { value: n };
    }
    if (kind === "string") return input.value === "" ? { unset: true } : { value: input.value };
    if (input.value.trim() === "") return { unset: true };
    let v;
    try {
      v = JSON.parse(input.value);
    } catch (e) {
      return { error: `not JSON (${e instanceof Error ? e.message : String(e)})` };
    }
    if (!typeOk(v, schema.type)) return { error: `${typeName(schema.type)} is wanted (got ${v === null ? "null" : Array.isArray(v) ? "an array" : typeof v})` };
    return { value: v };
  }

  /** Shows what the field holds (from an arguments object). */
  function write(value, present) {
    if (input.type === "checkbox") input.checked = present ? value === true : schema.default === true;
    else if (input.tagName === "SELECT") {
      const i = present ? input.choices.findIndex((o) => JSON.stringify(o.value) === JSON.stringify(value)) : -1;
      input.value = i >= 0 ? String(i) : "";
    } else if (!present) input.value = "";
    else if (kind === "string" || kind === "integer" || kind === "number") input.value = typeof value === "string" || typeof value === "number" ? String(value) : JSON.stringify(value);
    else input.value = JSON.stringify(value);
  }

  function setError(text) {
    error.textContent = text ?? "";
    error.hidden = !text;
    if (text) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", desc ? `${errId} ${descId}` : errId);
    } else {
      input.removeAttribute("aria-invalid");
      if (desc) input.setAttribute("aria-describedby", descId);
      else input.removeAttribute("aria-describedby");
    }
  }

  return { prop, schema, required, kind, input, box, read, write, setError };
}

/**
 * A form for `tool` (an entry of `tools/list`): `onCall(args)` is called with the arguments
 * object once every field is valid; `say(text)` announces what the form refuses.
 * @param {{ name: string, description?: string, inputSchema?: any, execution?: any }} tool
 * @param {{ onCall: (args: Record<string, unknown>) => void, say?: (text: string) => void }} options
 */
export function toolForm(tool, { onCall, say = () => {} }) {
  const name = String(tool.name);
  const n = ++formNo;
  const schema = isObject(tool.inputSchema) ? tool.inputSchema : {};
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : []);
  const form = h("form", { class: "tool panel", "data-tool": name, "aria-labelledby": `tool-${idPart(name)}-h`, novalidate: true });
  form.append(h("h4", { id: `tool-${idPart(name)}-h` }, h("code", {}, name)));
  if (tool.description) form.append(h("p", { class: "hint" }, String(tool.description)));
  const support = tool.execution?.taskSupport;
  if (typeof support === "string") form.append(h("p", { class: "hint" }, `task support: ${support}`));

  const fields = Object.entries(props).map(([prop, s]) => field(name, prop, isObject(s) ? s : {}, required.has(prop)));
  // A required property the schema names but does not describe: JSON, so it can be given.
  for (const prop of required) if (!(prop in props)) fields.push(field(name, prop, {}, true));
  const fieldsBox = h("div", { class: "tool-fields" }, fields.map((f) => f.box));
  if (fields.length === 0) fieldsBox.append(h("p", { class: "hint" }, "No arguments."));

  const jsonId = `tool-${n}-json`;
  const jsonInput = h("textarea", { id: jsonId, class: "args-json", rows: "6", spellcheck: "false", "aria-describedby": `${jsonId}-d` });
  const jsonError = h("p", { class: "field-error", id: `${jsonId}-e`, hidden: true });
  const jsonBox = h("div", { class: "field json-field", hidden: true },
    h("label", { for: jsonId }, "Arguments (a JSON object)"),
    h("p", { class: "hint", id: `${jsonId}-d` }, required.size ? `Required: ${[...required].join(", ")}.` : "Nothing is required."),
    jsonInput, jsonError);
  const toggle = h("button", { type: "button", class: "json-toggle secondary", "aria-pressed": "false", "aria-controls": jsonId }, "Edit as JSON");
  /** Properties of the JSON text the fields do not show: sent as they are. */
  let extra = {};

  const setJsonError = (text) => {
    jsonError.textContent = text ?? "";
    jsonError.hidden = !text;
    if (text) {
      jsonInput.setAttribute("aria-invalid", "true");
      jsonInput.setAttribute("aria-describedby", `${jsonId}-e ${jsonId}-d`);
    } else {
      jsonInput.removeAttribute("aria-invalid");
      jsonInput.setAttribute("aria-describedby", `${jsonId}-d`);
    }
  };

  /** The arguments the fields hold: `{ args, errors }` (errors: field → message). */
  function fromFields() {
    const args = { ...extra };
    const errors = new Map();
    for (const f of fields) {
      const r = f.read();
      delete args[f.prop];
      if (r.error) errors.set(f, r.error);
      else if (r.unset) {
        if (f.required) errors.set(f, `required: ${f.kind === "string" ? "enter a value (to send an empty string, edit as JSON)" : f.input.tagName === "SELECT" ? "choose a value" : "enter a value"}`);
      } else args[f.prop] = r.value;
    }
    return { args, errors };
  }

  /** The JSON text read: `{ args }` or `{ error }`. */
  function fromJson() {
    let v;
    try {
      v = JSON.parse(jsonInput.value);
    } catch (e) {
      return { error: `not JSON: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (!isObject(v)) return { error: `the arguments must be a JSON object (got ${v === null ? "null" : Array.isArray(v) ? "an array" : typeof v})` };
    const missing = [...required].filter((r) => !(r in v));
    if (missing.length) return { error: `required, missing: ${missing.join(", ")}` };
    return { args: v };
  }

  const jsonMode = () => toggle.getAttribute("aria-pressed") === "true";

  toggle.addEventListener("click", () => {
    if (!jsonMode()) {
      // Fields → JSON: what the fields hold (a field in error is left out, and said so).
      const { args, errors } = fromFields();
      jsonInput.value = JSON.stringify(args, null, 2);
      setJsonError(null);
      for (const f of fields) f.setError(null);
      const bad = [...errors.keys()].filter((f) => f.read().error).map((f) => f.prop);
      if (bad.length) setJsonError(`left out, not valid in the form: ${bad.join(", ")}`);
      fieldsBox.hidden = true;
      jsonBox.hidden = false;
      toggle.setAttribute("aria-pressed", "true");
      jsonInput.focus();
      return;
    }
    // JSON → fields: only valid JSON goes back (else the JSON stays, with the reason).
    let v;
    try {
      v = JSON.parse(jsonInput.value);
    } catch (e) {
      setJsonError(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
      jsonInput.focus();
      return;
    }
    if (!isObject(v)) {
      setJsonError("the arguments must be a JSON object");
      jsonInput.focus();
      return;
    }
    extra = {};
    for (const [k, val] of Object.entries(v)) if (!fields.some((f) => f.prop === k)) extra[k] = val;
    for (const f of fields) f.write(v[f.prop], f.prop in v);
    setJsonError(null);
    jsonBox.hidden = true;
    fieldsBox.hidden = false;
    toggle.setAttribute("aria-pressed", "false");
  });

  form.append(fieldsBox, jsonBox, h("div", { class: "card-actions" }, h("button", { type: "submit", class: "call" }, `Call ${name}`), toggle));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (jsonMode()) {
      const r = fromJson();
      setJsonError(r.error ?? null);
      if (r.error) {
        jsonInput.focus();
        say(`${name} not called: the arguments are ${r.error}.`);
        return;
      }
      onCall(r.args);
      return;
    }
    const { args, errors } = fromFields();
    for (const f of fields) f.setError(errors.get(f) ?? null);
    if (errors.size) {
      [...errors.keys()][0].input.focus();
      say(`${name} not called: ${[...errors].map(([f, e]) => `${f.prop}: ${e}`).join("; ")}.`);
      return;
    }
    onCall(args);
  });
  return form;
}
