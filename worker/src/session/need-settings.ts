/** A session object's answer when it was sent a settings id it does not hold (it has others, or none after a restart). */
export interface NeedSettings {
  needSettings: true;
}

export const NEED_SETTINGS: NeedSettings = { needSettings: true };
