// Controls both views share: the date range (presets and custom dates).

import { h } from "./dom.js";
import { PRESETS, resolveRange, todayUTC } from "./state.js";

/**
 * The range control: one button per preset, and a "from"/"to" pair for custom ranges.
 * `onChange` gets `{range, from, to}` to merge into the state.
 */
export class RangeControl {
  constructor(onChange, idPrefix) {
    this.onChange = onChange;
    this.buttons = PRESETS.map((preset) =>
      h("button", { type: "button", class: "segment", "data-range": preset.key, "aria-pressed": "false",
        onclick: () => onChange({ range: preset.key, from: null, to: null }) }, preset.label));
    this.from = h("input", { type: "date", id: `${idPrefix}-from`, name: "from", max: todayUTC() });
    this.to = h("input", { type: "date", id: `${idPrefix}-to`, name: "to", max: todayUTC() });
    const custom = () => {
      if (!this.from.value && !this.to.value) return;
      if (this.from.value && this.to.value && this.from.value > this.to.value) {
        this.to.setCustomValidity("The end comes before the start.");
        this.to.reportValidity();
        return;
      }
      this.to.setCustomValidity("");
      onChange({ range: "custom", from: this.from.value || null, to: this.to.value || null });
    };
    this.from.addEventListener("change", custom);
    this.to.addEventListener("change", custom);
    this.element = h("fieldset", { class: "range" },
      h("legend", {}, "Date range (UTC days)"),
      h("div", { class: "segments", role: "group", "aria-label": "Preset ranges" }, this.buttons),
      h("div", { class: "custom-range" },
        h("label", { for: this.from.id }, "From"), this.from,
        h("label", { for: this.to.id }, "to"), this.to));
  }

  /** Shows `state`'s range: the pressed preset, or the custom dates. */
  show(state) {
    for (const button of this.buttons) {
      button.setAttribute("aria-pressed", String(button.dataset.range === state.range));
    }
    const range = resolveRange(state);
    this.from.value = range.from ?? "";
    this.to.value = range.to ?? "";
    this.to.min = this.from.value;
    this.from.max = this.to.value || todayUTC();
  }
}
