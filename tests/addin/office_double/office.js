// TEST DOUBLE of Office.js for Word: not Microsoft's library, and not a simulator
// of Word. The browser test serves this file in place of Office.js from the CDN.
// It implements only the API subset the task pane uses, over an in-memory
// document, with Office.js's batching rules (commands run at context.sync(),
// properties are readable only after load + sync, failures stop the batch), and
// records what it was asked to do so the test can check it. See README.md here
// for what it does not model; real Word is checked by hand (README, "Word add-in").
(function () {
  "use strict";

  const W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
  const seed = window.__wordDoubleSeed || { paragraphs: [{ text: "Empty document." }] };

  // -- the in-memory document ------------------------------------------------------
  const doc = {
    paragraphs: seed.paragraphs.map((p) => ({ text: p.text, style: p.style || "Normal", bookmarks: [...(p.bookmarks || [])] })),
    properties: new Map(Object.entries(seed.customProperties || {})),
    changeTrackingMode: seed.changeTrackingMode || "TrackAll",
    revision: 1,
    styles: new Map(), // styleId (or docDefaults) -> w:style XML, from the patches inserted
  };
  const log = { inserts: [], selections: [], syncs: 0, trackingModes: [doc.changeTrackingMode], files: 0 };

  function touch() {
    doc.revision += 1;
  }

  function paragraphWithBookmark(name) {
    const lower = name.toLowerCase(); // bookmark names are case-insensitive in Word
    const index = doc.paragraphs.findIndex((p) => p.bookmarks.some((b) => b.toLowerCase() === lower));
    return index === -1 ? null : index;
  }

  function officeError(code, message) {
    const error = new Error(message);
    error.code = code;
    error.name = "RichApi.Error";
    return error;
  }

  // -- insertOoxml: what a flat-OPC patch does to a paragraph -------------------------
  const PKG_NS = "http://schemas.microsoft.com/office/2006/xmlPackage";
  const ID_KINDS = { commentRangeStart: "comment", commentRangeEnd: "comment", commentReference: "comment", comment: "comment",
    bookmarkStart: "bookmark", bookmarkEnd: "bookmark" };
  const nextId = { comment: 0, bookmark: 100000, revision: 200000 }; // patches never clash with each other or the seed

  /** Give every w:id in `elements` a fresh number of its kind (comments, bookmarks, revisions), as Word does on insert. */
  function renumber(elements) {
    const maps = { comment: new Map(), bookmark: new Map(), revision: new Map() };
    for (const root of elements) {
      for (const el of [root, ...root.getElementsByTagNameNS(W_NS, "*")]) {
        const id = el.getAttributeNS(W_NS, "id");
        if (el.namespaceURI !== W_NS || id === null || id === "") continue;
        const kind = ID_KINDS[el.localName] || "revision";
        if (!maps[kind].has(id)) maps[kind].set(id, String(nextId[kind]++));
        el.setAttributeNS(W_NS, "w:id", maps[kind].get(id));
      }
    }
  }

  function patchParagraphs(ooxml) {
    const xml = new DOMParser().parseFromString(ooxml, "application/xml");
    if (xml.getElementsByTagName("parsererror").length) throw officeError("InvalidArgument", "The OOXML is not well-formed.");
    const body = xml.getElementsByTagNameNS(W_NS, "body")[0];
    if (!body) throw officeError("InvalidArgument", "The OOXML has no document body.");
    const paragraphs = [...body.children].filter((el) => el.namespaceURI === W_NS && el.localName === "p");
    const comments = [...xml.getElementsByTagNameNS(PKG_NS, "part")]
      .filter((part) => part.getAttributeNS(PKG_NS, "name") === "/word/comments.xml")
      .flatMap((part) => [...part.getElementsByTagNameNS(W_NS, "comment")]);
    renumber([...paragraphs, ...comments]);
    const serializer = new XMLSerializer();
    // Word adds the styles a patch brings that the document lacks; so does the double.
    for (const part of xml.getElementsByTagNameNS(PKG_NS, "part")) {
      if (part.getAttributeNS(PKG_NS, "name") !== "/word/styles.xml") continue;
      for (const el of part.getElementsByTagNameNS(W_NS, "styles")[0].children) {
        const key = el.localName === "style" ? el.getAttributeNS(W_NS, "styleId") : el.localName;
        if (!doc.styles.has(key)) doc.styles.set(key, serializer.serializeToString(el));
      }
    }
    return {
      paragraphs: paragraphs.map((p) => ({
        // What Word shows with markup: inserted and kept text; deleted text is struck, not part of .text.
        text: [...p.getElementsByTagNameNS(W_NS, "t")].map((t) => t.textContent).join(""),
        bookmarks: [...p.getElementsByTagNameNS(W_NS, "bookmarkStart")].map((b) => b.getAttributeNS(W_NS, "name")),
        xml: serializer.serializeToString(p),
      })),
      comments: comments.map((c) => serializer.serializeToString(c)),
    };
  }

  let insertFailure = null; // set by the test: the next insertOoxml fails with this message

  /**
   * Replace paragraphs start..end (one paragraph's content, or a span made with expandTo) by
   * the patch's paragraphs. The one holding the span's original bookmarks keeps its style
   * and what it read before the first patch (for rejectAll); the others are the patch's
   * own new paragraphs. The span's comments are replaced by the patch's.
   */
  function insertOoxml(start, end, ooxml, location) {
    if (insertFailure) {
      const message = insertFailure;
      insertFailure = null;
      throw officeError("GeneralException", message);
    }
    if (location !== "Replace") throw officeError("NotImplemented", `the double only models insertOoxml(…, "Replace"), not ${location}`);
    const old = doc.paragraphs.slice(start, end + 1);
    const origin = old.find((p) => !p.insertedByPatch) || old[0];
    const patch = patchParagraphs(ooxml);
    log.inserts.push({ paragraph: start, span: end - start + 1, bookmarks: [...origin.bookmarks], ooxml, location,
      changeTrackingMode: doc.changeTrackingMode });
    const kept = patch.paragraphs.find((p) => p.bookmarks.some((b) => origin.bookmarks.includes(b))) || patch.paragraphs[0];
    const fresh = patch.paragraphs.map((p) => (p === kept
      ? { ...p, style: origin.style, patched: origin.patched || { text: origin.text, bookmarks: [...origin.bookmarks] }, comments: patch.comments }
      : { ...p, style: "Normal", insertedByPatch: true }));
    doc.paragraphs.splice(start, old.length, ...fresh);
    touch();
  }

  // -- proxies with Office.js batching ----------------------------------------------------
  class ClientObject {
    constructor(context) {
      this._context = context;
      this._loaded = new Set();
      this._values = {};
    }
    _prop(name) {
      if (!this._loaded.has(name)) {
        throw officeError("PropertyNotLoaded", `The property '${name}' is not available. Load it and call context.sync() first.`);
      }
      return this._values[name];
    }
    _queue(op) {
      this._context._queue.push(op);
    }
    load(spec) {
      const names = typeof spec === "string" ? spec.split(",").map((s) => s.trim()) : [].concat(spec);
      this._queue(() => this._load(names));
      return this;
    }
  }

  class Paragraph extends ClientObject {
    constructor(context, locate) {
      super(context);
      this._locate = locate; // () => paragraph index, evaluated when the batch runs
    }
    get text() { return this._prop("text"); }
    get style() { return this._prop("style"); }
    get isNullObject() { return this._prop("isNullObject"); }
    _found() {
      const index = this._locate();
      return index === null || doc.paragraphs[index] === undefined ? null : index;
    }
    _index() {
      const index = this._found();
      if (index === null) throw officeError("ItemNotFound", "The paragraph does not exist.");
      return index;
    }
    _load(names) {
      if (names.includes("isNullObject")) {
        this._values.isNullObject = this._found() === null;
        this._loaded.add("isNullObject");
        if (this._values.isNullObject) return; // a null object's other properties are not read
      }
      const p = doc.paragraphs[this._index()];
      for (const name of names.filter((n) => n !== "isNullObject")) {
        if (!(name in p)) throw officeError("InvalidArgument", `the double has no paragraph property '${name}'`);
        this._values[name] = p[name];
        this._loaded.add(name);
      }
    }
    getRange(location = "Whole") {
      if (location !== "Whole" && location !== "Content") throw officeError("NotImplemented", `getRange("${location}")`);
      return new Range(this._context, () => this._index());
    }
    select() {
      this._queue(() => log.selections.push({ paragraph: this._index(), text: doc.paragraphs[this._index()].text }));
    }
    getNextOrNullObject() {
      return new Paragraph(this._context, () => {
        const index = this._found();
        return index === null || index + 1 >= doc.paragraphs.length ? null : index + 1;
      });
    }
    getPreviousOrNullObject() {
      return new Paragraph(this._context, () => {
        const index = this._found();
        return index === null || index === 0 ? null : index - 1;
      });
    }
  }

  class ParagraphCollection extends ClientObject {
    get items() { return this._prop("items"); }
    _load(names) {
      const fields = names.map((n) => n.replace(/^items\//, "")).filter((n) => n !== "items");
      this._values.items = doc.paragraphs.map((_, i) => {
        const p = new Paragraph(this._context, () => i);
        p._load(fields);
        return p;
      });
      this._loaded.add("items");
    }
  }

  class ClientResult {
    constructor() { this._set = false; }
    get value() {
      if (!this._set) throw officeError("PropertyNotLoaded", "ClientResult.value is available after context.sync().");
      return this._value;
    }
  }

  class Range extends ClientObject {
    constructor(context, locate, locateEnd = locate) {
      super(context);
      this._locate = locate; // () => paragraph index or null (a null object)
      this._locateEnd = locateEnd; // () => the last paragraph's index, for a range made by expandTo
      this.paragraphs = { getFirst: () => new Paragraph(context, () => this._index()) };
    }
    get isNullObject() { return this._prop("isNullObject"); }
    _index() {
      const index = this._locate();
      if (index === null) throw officeError("ItemNotFound", "The range is a null object.");
      return index;
    }
    _load(names) {
      for (const name of names) {
        if (name !== "isNullObject") throw officeError("InvalidArgument", `the double has no range property '${name}'`);
        this._values.isNullObject = this._locate() === null;
        this._loaded.add(name);
      }
    }
    getBookmarks(includeHidden = false) {
      const result = new ClientResult();
      this._queue(() => {
        result._value = doc.paragraphs[this._index()].bookmarks.filter((b) => includeHidden || !b.startsWith("_"));
        result._set = true;
      });
      return result;
    }
    insertBookmark(name) {
      this._queue(() => {
        const index = this._index();
        for (const p of doc.paragraphs) p.bookmarks = p.bookmarks.filter((b) => b.toLowerCase() !== name.toLowerCase());
        doc.paragraphs[index].bookmarks.push(name);
        touch();
      });
    }
    insertOoxml(ooxml, location) {
      this._queue(() => insertOoxml(this._index(), this._locateEnd(), ooxml, location));
    }
    expandTo(range) {
      return new Range(this._context, () => Math.min(this._index(), range._index()),
        () => Math.max(this._locateEnd(), range._locateEnd()));
    }
  }

  class CustomProperty extends ClientObject {
    constructor(context, key) {
      super(context);
      this._key = key;
    }
    get isNullObject() { return this._prop("isNullObject"); }
    get value() { return this._prop("value"); }
    _load(names) {
      this._values.isNullObject = !doc.properties.has(this._key);
      this._loaded.add("isNullObject");
      if (names.includes("value")) {
        this._values.value = doc.properties.get(this._key);
        this._loaded.add("value");
      }
    }
  }

  class Document extends ClientObject {
    constructor(context) {
      super(context);
      this.body = { paragraphs: new ParagraphCollection(context) };
      this.properties = {
        customProperties: {
          getItemOrNullObject: (key) => new CustomProperty(context, key),
          add: (key, value) => {
            this._queue(() => {
              doc.properties.set(key, String(value));
              touch();
            });
          },
        },
      };
    }
    get changeTrackingMode() { return this._prop("changeTrackingMode"); }
    set changeTrackingMode(mode) {
      this._queue(() => {
        doc.changeTrackingMode = mode;
        log.trackingModes.push(mode);
      });
    }
    _load(names) {
      for (const name of names) {
        if (name !== "changeTrackingMode") throw officeError("InvalidArgument", `the double has no document property '${name}'`);
        this._values.changeTrackingMode = doc.changeTrackingMode;
        this._loaded.add(name);
      }
    }
    getBookmarkRangeOrNullObject(name) {
      return new Range(this._context, () => paragraphWithBookmark(name));
    }
  }

  class RequestContext {
    constructor() {
      this._queue = [];
      this.document = new Document(this);
    }
    async sync() {
      const batch = this._queue;
      this._queue = [];
      log.syncs += 1;
      await new Promise((resolve) => setTimeout(resolve, 0)); // a round trip, as with the real host
      for (const op of batch) op(); // the first failure stops the batch, as in Office.js
    }
  }

  // -- getFileAsync: the document as a real .docx (stored zip) ------------------------------
  const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });

  function crc32(bytes) {
    let c = 0xffffffff;
    for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  }

  function zip(files) {
    const enc = new TextEncoder();
    const chunks = [];
    const central = [];
    let offset = 0;
    for (const [name, text] of files) {
      const nameBytes = enc.encode(name);
      const data = enc.encode(text);
      const crc = crc32(data);
      const local = new DataView(new ArrayBuffer(30));
      [[0, 0x04034b50, 4], [4, 20, 2], [6, 0x0800, 2], [8, 0, 2], [10, 0, 2], [12, 0x21, 2], [14, crc, 4],
        [18, data.length, 4], [22, data.length, 4], [26, nameBytes.length, 2], [28, 0, 2]]
        .forEach(([at, value, size]) => (size === 4 ? local.setUint32(at, value, true) : local.setUint16(at, value, true)));
      const entry = new DataView(new ArrayBuffer(46));
      [[0, 0x02014b50, 4], [4, 20, 2], [6, 20, 2], [8, 0x0800, 2], [10, 0, 2], [12, 0, 2], [14, 0x21, 2], [16, crc, 4],
        [20, data.length, 4], [24, data.length, 4], [28, nameBytes.length, 2], [30, 0, 2], [32, 0, 2], [34, 0, 2],
        [36, 0, 2], [38, 0, 4], [42, offset, 4]]
        .forEach(([at, value, size]) => (size === 4 ? entry.setUint32(at, value, true) : entry.setUint16(at, value, true)));
      chunks.push(new Uint8Array(local.buffer), nameBytes, data);
      central.push(new Uint8Array(entry.buffer), nameBytes);
      offset += 30 + nameBytes.length + data.length;
    }
    const centralSize = central.reduce((n, c) => n + c.length, 0);
    const end = new DataView(new ArrayBuffer(22));
    [[0, 0x06054b50, 4], [8, files.length, 2], [10, files.length, 2], [12, centralSize, 4], [16, offset, 4]]
      .forEach(([at, value, size]) => (size === 4 ? end.setUint32(at, value, true) : end.setUint16(at, value, true)));
    const all = [...chunks, ...central, new Uint8Array(end.buffer)];
    const out = new Uint8Array(all.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of all) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }

  // The namespaces patch paragraphs use (w14:paraId and the like), ignorable as in Word's own files.
  const MC_DECL = 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    + 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    + 'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
    + 'xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml" '
    + 'xmlns:w16cid="http://schemas.microsoft.com/office/word/2016/wordml/cid" mc:Ignorable="w14 w15 w16cid"';

  function esc(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  function docx() {
    let id = 0;
    const body = doc.paragraphs.map((p) => {
      if (p.xml) return p.xml; // a patch's paragraph, as Word took it (ids renumbered on insert)
      const style = p.style && p.style !== "Normal" ? `<w:pPr><w:pStyle w:val="${esc(p.style.replace(/ /g, ""))}"/></w:pPr>` : "";
      const starts = p.bookmarks.map((name, i) => `<w:bookmarkStart w:id="${id + i}" w:name="${esc(name)}"/>`).join("");
      const ends = p.bookmarks.map((_, i) => `<w:bookmarkEnd w:id="${id + i}"/>`).join("");
      id += p.bookmarks.length;
      return `<w:p>${style}${starts}<w:r><w:t xml:space="preserve">${esc(p.text)}</w:t></w:r>${ends}</w:p>`;
    }).join("");
    const comments = doc.paragraphs.flatMap((p) => p.comments || []);
    const parts = [];
    if (comments.length) parts.push(["comments", `<w:comments xmlns:w="${W_NS}" ${MC_DECL}>${comments.join("")}</w:comments>`]);
    if (doc.styles.size) {
      const order = [...doc.styles.keys()].sort((a, b) => (b === "docDefaults") - (a === "docDefaults")); // schema order
      parts.push(["styles", `<w:styles xmlns:w="${W_NS}" ${MC_DECL}>${order.map((k) => doc.styles.get(k)).join("")}</w:styles>`]);
    }
    const rel = (rid, type, target) => `<Relationship Id="${rid}" Type="http://schemas.openxmlformats.org/${type}" Target="${target}"/>`;
    const custom = [...doc.properties].map(([key, value], i) =>
      `<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="${i + 2}" name="${esc(key)}"><vt:lpwstr>${esc(value)}</vt:lpwstr></property>`).join("");
    return zip([
      ["[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/><Override PartName="/docProps/custom.xml" ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/>${parts.map(([kind]) => `<Override PartName="/word/${kind}.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.${kind}+xml"/>`).join("")}</Types>`],
      ["_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel("rId1", "officeDocument/2006/relationships/officeDocument", "word/document.xml")}${rel("rId2", "package/2006/relationships/metadata/core-properties", "docProps/core.xml")}${rel("rId3", "officeDocument/2006/relationships/custom-properties", "docProps/custom.xml")}</Relationships>`],
      ["word/document.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W_NS}" ${MC_DECL}><w:body>${body}<w:sectPr/></w:body></w:document>`],
      ...(parts.length ? [["word/_rels/document.xml.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${parts.map(([kind], i) => rel(`rId${i + 1}`, `officeDocument/2006/relationships/${kind}`, `${kind}.xml`)).join("")}</Relationships>`]] : []),
      ...parts.map(([kind, xml]) => [`word/${kind}.xml`, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${xml}`]),
      ["docProps/core.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"><cp:revision>${doc.revision}</cp:revision></cp:coreProperties>`],
      ["docProps/custom.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">${custom}</Properties>`],
    ]);
  }

  function asyncResult(value, error) {
    return error
      ? { status: "failed", error: { name: "Error", message: error.message, code: 5001 } }
      : { status: "succeeded", value };
  }

  function getFileAsync(fileType, options, callback) {
    const done = typeof options === "function" ? options : callback;
    const sliceSize = (typeof options === "object" && options.sliceSize) || 4 * 1024 * 1024;
    setTimeout(() => {
      if (fileType !== "compressed") return done(asyncResult(null, new Error(`the double only produces Compressed files, not ${fileType}`)));
      let bytes;
      try {
        bytes = docx();
      } catch (error) {
        return done(asyncResult(null, error));
      }
      log.files += 1;
      const sliceCount = Math.max(1, Math.ceil(bytes.length / sliceSize));
      done(asyncResult({
        size: bytes.length,
        sliceCount,
        getSliceAsync(index, cb) {
          const data = Array.from(bytes.subarray(index * sliceSize, (index + 1) * sliceSize));
          setTimeout(() => cb(asyncResult({ index, data, size: data.length })), 0);
        },
        closeAsync(cb) {
          setTimeout(() => cb && cb(asyncResult(undefined)), 0);
        },
      }));
    }, 0);
  }

  // -- dialogs: a real window on the same origin ---------------------------------------------
  function displayDialogAsync(url, options, callback) {
    const done = typeof options === "function" ? options : callback;
    if (new URL(url, location.href).origin !== location.origin) {
      return done(asyncResult(null, new Error("The dialog must be on the add-in's own domain.")));
    }
    const handlers = {};
    const win = window.open(url, "office-dialog", "width=420,height=560");
    const watch = setInterval(() => {
      if (win.closed) {
        clearInterval(watch);
        if (!dialog.closedByCode && handlers.DialogEventReceived) handlers.DialogEventReceived({ error: 12006, type: "dialogEventReceived" });
      }
    }, 200);
    const dialog = {
      closedByCode: false,
      addEventHandler(type, handler) {
        handlers[type] = handler;
      },
      close() {
        dialog.closedByCode = true;
        win.close();
      },
    };
    window.__officeDialog = {
      deliver(message, origin) {
        if (handlers.DialogMessageReceived) handlers.DialogMessageReceived({ message, origin, type: "dialogMessageReceived" });
      },
    };
    done(asyncResult(dialog));
  }

  function messageParent(message) {
    if (!window.opener || !window.opener.__officeDialog) throw new Error("messageParent: this window was not opened by displayDialogAsync");
    window.opener.__officeDialog.deliver(String(message), location.origin);
  }

  // -- requirement sets -------------------------------------------------------------------------
  const supported = seed.requirementSets || { WordApi: "1.4", CompressedFile: "1.1", DialogApi: "1.2", DialogOrigin: "1.1" };

  function isSetSupported(name, minVersion = "1.1") {
    if (!(name in supported)) return false;
    const have = supported[name].split(".").map(Number);
    const want = String(minVersion).split(".").map(Number);
    for (let i = 0; i < Math.max(have.length, want.length); i++) {
      if ((have[i] || 0) !== (want[i] || 0)) return (have[i] || 0) > (want[i] || 0);
    }
    return true;
  }

  // -- the globals -----------------------------------------------------------------------------------
  window.Office = {
    HostType: { Word: "Word" },
    AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
    FileType: { Compressed: "compressed" },
    EventType: { DialogMessageReceived: "DialogMessageReceived", DialogEventReceived: "DialogEventReceived" },
    context: {
      partitionKey: seed.partitionKey,
      requirements: { isSetSupported },
      document: { url: seed.url || "https://contoso.sharepoint.com/Shared%20Documents/Contract.docx", getFileAsync },
      ui: { displayDialogAsync, messageParent },
    },
    onReady(callback) {
      const info = { host: "Word", platform: "OfficeOnline" };
      const ready = new Promise((resolve) => setTimeout(() => resolve(info), 0));
      if (callback) ready.then(callback);
      return ready;
    },
  };

  window.Word = {
    ChangeTrackingMode: { off: "Off", trackAll: "TrackAll", trackMineOnly: "TrackMineOnly" },
    InsertLocation: { replace: "Replace" },
    async run(batch) {
      const context = new RequestContext();
      const result = await batch(context);
      await context.sync(); // Word.run syncs what the batch left queued
      return result;
    },
  };

  // The test's handle on the document: inspect it, and act as the lawyer would in Word.
  window.__wordDouble = {
    doc,
    log,
    /** The lawyer rejects every change our patches made (Review › Reject All, comments deleted). */
    rejectAll() {
      for (let i = doc.paragraphs.length - 1; i >= 0; i--) {
        const p = doc.paragraphs[i];
        if (p.insertedByPatch) doc.paragraphs.splice(i, 1);
      }
      for (const p of doc.paragraphs) {
        if (!p.patched) continue;
        Object.assign(p, { text: p.patched.text, bookmarks: p.patched.bookmarks });
        delete p.patched;
        delete p.xml;
        delete p.comments;
      }
      touch();
    },
    /** Make the next insertOoxml fail, as Word does on OOXML it cannot take. */
    failNextInsert(message) {
      insertFailure = message;
    },
    /** The lawyer edits a paragraph's text. */
    edit(index, text) {
      doc.paragraphs[index].text = text;
      touch();
    },
    /** The document as the .docx getFileAsync would give (patches and their comments included), as a byte array. */
    docxBytes() {
      return Array.from(docx());
    },
    snapshot() {
      return JSON.parse(JSON.stringify({ paragraphs: doc.paragraphs, properties: [...doc.properties], changeTrackingMode: doc.changeTrackingMode }));
    },
  };
})();
