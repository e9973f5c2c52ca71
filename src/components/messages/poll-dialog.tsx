// Creating a poll from the composer's + menu (spec §4 createPoll): a question, 2–10 options, and
// whether several may be chosen. The poll appears at once and is sent through the outbox.
import { Plus, X } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { POLL_OPTIONS_MAX, POLL_OPTIONS_MIN } from '../../../schemas/protocol/index.ts';
import { notifyError } from '../../app/notify.ts';
import { createPoll } from '../../data/messages.ts';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { Input, Label } from '../ui/input.tsx';
import { SwitchRow } from '../ui/switch.tsx';

let nextKey = 0;
const newOption = () => ({ key: nextKey++, text: '' });

export function PollDialog({
  institutionId,
  channelId,
  open,
  onOpenChange,
}: {
  institutionId: string;
  channelId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [question, setQuestion] = useState('');
  // Options carry a local key so that removing one keeps the others' inputs in place.
  const [options, setOptions] = useState(() => [newOption(), newOption()]);
  const [multiple, setMultiple] = useState(false);
  const questionRef = useRef<HTMLInputElement>(null);
  // Opened from the composer's menu, whose closing hands focus back to its button after the dialog has
  // mounted: take it to the first field once both have settled.
  useEffect(() => {
    if (!open) return;
    const timer = window.setTimeout(() => questionRef.current?.focus(), 50);
    return () => window.clearTimeout(timer);
  }, [open]);
  const filled = options.map((o) => o.text.trim()).filter(Boolean);
  const ready = question.trim().length > 0 && filled.length >= POLL_OPTIONS_MIN;

  function reset() {
    setQuestion('');
    setOptions([newOption(), newOption()]);
    setMultiple(false);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    try {
      await createPoll({ institutionId, channelId, question: question.trim(), options: filled, multiple });
      reset();
      onOpenChange(false);
    } catch (error) {
      notifyError(error);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Create a poll">
      <form onSubmit={(e) => void submit(e)} className="space-y-3">
        <div className="space-y-1">
          <Label htmlFor="poll-question">Question</Label>
          <Input
            id="poll-question"
            value={question}
            onChange={(e) => setQuestion(e.target.value)}
            placeholder="Ask something"
            ref={questionRef}
            // The dialog opens to ask this: focus starts on its first field, not on Close.
            autoFocus
          />
        </div>
        <fieldset className="space-y-1.5">
          <legend className="mb-1 text-[13px] font-medium">Options</legend>
          {options.map((option, index) => (
            <div key={option.key} className="flex items-center gap-1.5">
              <Input
                aria-label={`Option ${index + 1}`}
                value={option.text}
                onChange={(e) =>
                  setOptions(options.map((o) => (o.key === option.key ? { ...o, text: e.target.value } : o)))
                }
                placeholder={`Option ${index + 1}`}
              />
              {options.length > POLL_OPTIONS_MIN ? (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove option ${index + 1}`}
                  onClick={() => setOptions(options.filter((o) => o.key !== option.key))}
                >
                  <X />
                </Button>
              ) : null}
            </div>
          ))}
          {options.length < POLL_OPTIONS_MAX ? (
            <Button variant="ghost" size="sm" onClick={() => setOptions([...options, newOption()])}>
              <Plus aria-hidden />
              Add option
            </Button>
          ) : null}
        </fieldset>
        <SwitchRow label="Allow several choices" checked={multiple} onCheckedChange={setMultiple} />
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={!ready}>
            Create poll
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
